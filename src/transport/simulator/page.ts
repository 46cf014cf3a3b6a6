/**
 * The simulator's chat page: one self-contained HTML document (inline CSS and JS, nothing
 * fetched from elsewhere), kept as a string so `tsc` output serves it without copying assets.
 * Its URLs are relative to where it is mounted, so it works under any prefix.
 *
 * Written with String.raw so regular expressions keep their backslashes; the script therefore
 * uses no template literals (no backticks, no dollar-brace).
 */

const STYLE = String.raw`
:root {
  --header: #008069; --header-text: #fff; --wall: #efeae2; --mine: #d9fdd3; --theirs: #fff;
  --text: #111b21; --muted: #667781; --blue: #53bdeb; --link: #027eb5; --danger: #d63b3b;
  --panel: #f0f2f5; --shadow: 0 1px 0.5px rgba(11, 20, 26, 0.13);
  color-scheme: light;
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; background: #d1d7db; }
body { font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Hebrew", Arial, sans-serif; color: var(--text); }
button, input, select, textarea { font: inherit; color: inherit; }
button { cursor: pointer; }
.visually-hidden { position: absolute; width: 1px; height: 1px; opacity: 0; overflow: hidden; pointer-events: none; }
#app { display: flex; flex-direction: column; height: 100vh; height: 100dvh; max-width: 980px; margin: 0 auto; background: var(--wall); box-shadow: 0 0 24px rgba(0,0,0,.12); position: relative; }
.top { display: flex; align-items: center; gap: 10px; padding: 8px 12px; background: var(--header); color: var(--header-text); min-height: 56px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #25d366; color: #fff; display: grid; place-items: center; font-weight: 700; font-size: 18px; }
.who { flex: 1 1 auto; min-width: 52px; }
.who .title { font-weight: 600; font-size: 16px; white-space: nowrap; }
.who .sub { font-size: 12.5px; opacity: .85; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.who .sub.typing { color: #b9f6ca; opacity: 1; font-style: italic; }
.who .sub.typing .sim-label { display: none; }
.who .sub.offline { color: #ffd8d8; opacity: 1; }
.identity { flex: 0 1 auto; min-width: 0; display: flex; align-items: center; gap: 6px; font-size: 13px; }
.identity label { min-width: 0; display: flex; align-items: center; gap: 4px; white-space: nowrap; }
.identity select { min-width: 0; max-width: 100%; background: rgba(255,255,255,.15); color: #fff; border: 1px solid rgba(255,255,255,.35); border-radius: 6px; padding: 4px 6px; text-overflow: ellipsis; }
.identity select option { color: var(--text); }
.icon-btn { flex: none; display: inline-grid; place-items: center; width: 40px; height: 40px; border: 0; border-radius: 50%; background: transparent; font-size: 20px; color: var(--muted); }
.icon-btn:hover { background: rgba(0,0,0,.06); }
.icon-btn:focus-within, .icon-btn:focus-visible { outline: 2px solid var(--header); outline-offset: -2px; }
.top .icon-btn { color: #fff; width: 34px; height: 34px; font-size: 18px; }
.top .icon-btn:hover { background: rgba(255,255,255,.15); }
.panel { display: flex; flex-wrap: wrap; gap: 8px; padding: 10px 12px; background: var(--panel); border-bottom: 1px solid #d1d7db; }
.panel[hidden], .banner[hidden], .bar[hidden], .sheet[hidden], .toast[hidden] { display: none; }
.panel input { flex: 1 1 160px; padding: 7px 10px; border: 1px solid #d1d7db; border-radius: 8px; background: #fff; }
.panel button { padding: 7px 14px; border: 0; border-radius: 8px; background: var(--header); color: #fff; }
.banner { padding: 6px 12px; background: #fff3c4; color: #5b4a00; font-size: 13px; text-align: center; }
#messages { flex: 1; overflow-y: auto; padding: 12px 5% 8px; display: flex; flex-direction: column; gap: 3px; scroll-behavior: auto; }
.empty { margin: auto; text-align: center; color: var(--muted); background: rgba(255,255,255,.7); padding: 10px 16px; border-radius: 8px; font-size: 14px; }
.day { align-self: center; margin: 8px 0; padding: 4px 10px; background: #fff; border-radius: 8px; font-size: 12px; color: var(--muted); box-shadow: var(--shadow); }
.row { display: flex; flex-direction: column; max-width: min(78%, 560px); margin-top: 2px; }
.row.in { align-self: flex-end; align-items: flex-end; }
.row.out { align-self: flex-start; align-items: flex-start; }
.bubble { position: relative; padding: 6px 8px 6px 9px; border-radius: 8px; box-shadow: var(--shadow); min-width: 74px; max-width: 100%; word-wrap: break-word; overflow-wrap: anywhere; }
.row.in .bubble { background: var(--mine); border-top-right-radius: 2px; }
.row.out .bubble { background: var(--theirs); border-top-left-radius: 2px; }
.row.flash .bubble { animation: flash 1.2s ease; }
@keyframes flash { 0%, 60% { box-shadow: 0 0 0 3px rgba(0,128,105,.45); } 100% { box-shadow: var(--shadow); } }
.text { white-space: pre-wrap; }
.template-text { unicode-bidi: plaintext; text-align: start; }
.text code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13.5px; }
.text a { color: var(--link); }
.header-text { font-weight: 600; margin-bottom: 2px; }
.footer-text { color: var(--muted); font-size: 13px; margin-top: 3px; }
.tag { display: inline-block; font-size: 11px; color: var(--muted); border: 1px solid #d1d7db; border-radius: 4px; padding: 0 4px; margin-bottom: 3px; }
.meta { display: flex; justify-content: flex-end; align-items: center; gap: 3px; margin-top: 1px; font-size: 11px; color: var(--muted); line-height: 1; white-space: nowrap; }
.ticks { font-size: 13px; letter-spacing: -3px; padding-right: 3px; color: var(--muted); }
.ticks[data-status="read"] { color: var(--blue); }
.ticks[data-status="failed"] { color: var(--danger); letter-spacing: 0; font-weight: 700; }
.quote { display: block; width: 100%; text-align: start; border: 0; border-left: 4px solid #06cf9c; border-radius: 6px; background: rgba(0,0,0,.05); padding: 4px 8px; margin: 0 0 4px; font-size: 13px; }
.quote.mine { border-left-color: #53bdeb; }
.quote .q-who { display: block; font-weight: 600; color: #06a884; font-size: 12.5px; }
.quote.mine .q-who { color: #1f8fbf; }
.quote .q-text { display: block; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.media { display: block; max-width: 100%; max-height: 320px; border-radius: 6px; margin-bottom: 4px; background: #ddd; }
.sticker { max-width: 160px; background: transparent; }
audio.media { width: 260px; max-width: 100%; height: 40px; background: transparent; }
.voice-label { font-size: 12px; color: var(--muted); }
.doc { display: flex; align-items: center; gap: 10px; min-width: 200px; padding: 8px 10px; margin-bottom: 4px; border-radius: 6px; background: rgba(0,0,0,.05); color: inherit; text-decoration: none; }
.doc:hover { background: rgba(0,0,0,.08); }
.doc-icon { flex: none; font-size: 26px; line-height: 1; }
.doc-name { display: block; font-weight: 500; overflow-wrap: anywhere; }
.doc-meta { display: block; font-size: 12px; color: var(--muted); }
.reply-action { position: absolute; top: 2px; right: 2px; width: 24px; height: 24px; border: 0; border-radius: 50%; background: rgba(255,255,255,.85); color: var(--muted); font-size: 14px; line-height: 1; opacity: 0; transition: opacity .15s; }
.row:hover .reply-action, .reply-action:focus-visible { opacity: 1; }
@media (hover: none) { .reply-action { opacity: .55; } }
.actions { display: flex; flex-direction: column; gap: 2px; margin-top: 2px; width: 100%; min-width: 200px; }
.actions button { border: 0; border-radius: 8px; background: var(--theirs); color: var(--link); padding: 9px 12px; font-weight: 500; box-shadow: var(--shadow); text-align: center; }
.actions button:hover { background: #f5f6f6; }
.actions button:active { background: #e9edef; }
.reactions { position: absolute; bottom: -14px; right: 8px; background: #fff; border-radius: 12px; padding: 1px 5px; font-size: 13px; box-shadow: 0 1px 3px rgba(0,0,0,.2); }
.row.has-reactions { margin-bottom: 14px; }
.error { color: var(--danger); font-size: 12px; margin-top: 2px; max-width: 100%; }
.bar { display: flex; align-items: center; gap: 8px; padding: 6px 10px; background: var(--panel); border-top: 1px solid #e1e4e7; }
.bar .quote { margin: 0; flex: 1; min-width: 0; }
.bar img { width: 44px; height: 44px; object-fit: cover; border-radius: 6px; }
.bar img[hidden], .bar .doc-icon[hidden] { display: none; }
.bar .name { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 13px; color: var(--muted); }
.composer { display: flex; align-items: flex-end; gap: 4px; padding: 6px 8px calc(6px + env(safe-area-inset-bottom)); background: var(--panel); }
.composer textarea { flex: 1; min-width: 0; resize: none; border: 0; border-radius: 20px; padding: 10px 14px; max-height: 140px; background: #fff; line-height: 1.35; outline: none; }
.send { background: var(--header) !important; color: #fff !important; }
.send:disabled { opacity: .6; }
.recording { color: var(--danger) !important; animation: pulse 1s infinite; }
@keyframes pulse { 50% { opacity: .5; } }
.fwd-toggle { display: flex; align-items: center; gap: 3px; align-self: center; font-size: 12px; color: var(--muted); white-space: nowrap; cursor: pointer; user-select: none; }
.fwd-toggle:has(input:checked) { color: var(--header); font-weight: 600; }
.fwd-label { display: block; font-size: 12px; font-style: italic; color: var(--muted); margin-bottom: 2px; }
.rec-time { align-self: center; font-size: 13px; color: var(--danger); min-width: 36px; }
.sheet { position: absolute; inset: 0; background: rgba(11,20,26,.4); display: flex; align-items: flex-end; justify-content: center; z-index: 5; }
.sheet-card { width: 100%; max-width: 480px; max-height: 80%; overflow-y: auto; background: #fff; border-radius: 14px 14px 0 0; padding: 8px 0 12px; }
@media (min-width: 700px) { .sheet { align-items: center; } .sheet-card { border-radius: 12px; } }
.sheet-title { display: flex; align-items: center; gap: 8px; padding: 6px 12px 10px; font-weight: 600; font-size: 16px; border-bottom: 1px solid #e9edef; }
.sheet-title span { flex: 1; min-width: 0; text-align: start; }
.section-title { padding: 10px 16px 4px; color: #008069; font-size: 13px; font-weight: 600; }
.list-row { display: block; width: 100%; text-align: start; border: 0; background: transparent; padding: 10px 16px; border-bottom: 1px solid #f0f2f5; }
.list-row:hover { background: #f5f6f6; }
.list-row .row-title { display: block; }
.list-row .row-desc { display: block; font-size: 13px; color: var(--muted); }
.toast { position: absolute; left: 50%; bottom: 72px; transform: translateX(-50%); background: #323739; color: #fff; padding: 8px 14px; border-radius: 8px; font-size: 13.5px; max-width: 90%; z-index: 6; box-shadow: 0 2px 8px rgba(0,0,0,.3); }
@media (max-width: 520px) {
  #messages { padding: 10px 8px 6px; } .row { max-width: 88%; }
  .top { gap: 8px; padding: 8px 6px 8px 10px; }
  .avatar { width: 36px; height: 36px; font-size: 16px; }
  .identity { gap: 2px; }
  .identity .me-label, .who .sim-label { display: none; }
  .identity select { font-size: 12.5px; padding: 4px 2px; }
  /* The paperclip takes photos too: one button fewer on a narrow screen. */
  .attach-image-btn { display: none; }
  /* The forwarded toggle keeps its arrow and its tooltip; the word would squeeze the text box. */
  .fwd-toggle .fwd-text { display: none; }
}
`;

const SCRIPT = String.raw`
(function () {
  "use strict";
  var BASE = location.pathname.replace(/\/+$/, "") + "/";
  var DEFAULT_PHONE = "972501234567";
  var KEY_PHONES = "memoSim.phones", KEY_PHONE = "memoSim.phone", KEY_NAMES = "memoSim.names";

  function $(id) { return document.getElementById(id); }
  var root = $("app"), list = $("messages"), input = $("composer"), sendBtn = $("send"), statusEl = $("status");
  var forwardedBox = $("forwarded");
  var phoneSelect = $("phone"), banner = $("banner"), toastEl = $("toast"), sheet = $("sheet");

  function load(key, fallback) {
    try { var v = JSON.parse(localStorage.getItem(key) || "null"); return v == null ? fallback : v; } catch (e) { return fallback; }
  }
  function save(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ } }

  var phones = load(KEY_PHONES, [DEFAULT_PHONE]).filter(validPhone);
  if (phones.length === 0) phones = [DEFAULT_PHONE];
  var names = load(KEY_NAMES, {});
  var params = new URLSearchParams(location.search);
  var phone = params.get("phone") || load(KEY_PHONE, phones[0]);
  if (!validPhone(phone)) phone = phones[0];
  if (phones.indexOf(phone) < 0) phones.push(phone);

  var messages = new Map();   // id -> message
  var rows = new Map();       // id -> row element
  var reactions = new Map();  // target id -> { in: emoji, out: emoji }
  var acked = new Set();
  var lastDay = null;
  var typing = false;
  var replyTo = null;
  var attachment = null;
  var picks = 0;  // files picked so far: a read that finishes after a later pick is dropped
  var es = null, retryTimer = null, retryDelay = 1000, generation = 0;

  function validPhone(p) { return typeof p === "string" && /^[0-9]{6,15}$/.test(p); }
  function nameOf(p) { return names[p] || "Dev User"; }
  // The phone is what identifies the chat: a long name is shortened, never the number.
  function shortName(n) { var chars = Array.from(n); return chars.length > 20 ? chars.slice(0, 19).join("") + "…" : n; }

  // ---------- identity ----------
  function renderPhones() {
    phoneSelect.textContent = "";
    phones.forEach(function (p) {
      var o = document.createElement("option");
      o.value = p; o.textContent = "+" + p + " · \u2068" + shortName(nameOf(p)) + "\u2069";
      o.title = "+" + p + " · " + nameOf(p);
      if (p === phone) o.selected = true;
      phoneSelect.appendChild(o);
    });
  }
  function usePhone(p) {
    phone = p;
    if (phones.indexOf(p) < 0) phones.push(p);
    save(KEY_PHONES, phones); save(KEY_PHONE, p);
    root.setAttribute("data-phone", p);
    renderPhones();
    setReply(null); setAttachment(null); closeSheet();
    picks++;  // a file still being read belongs to the chat it was picked in
    connect();
  }
  phoneSelect.addEventListener("change", function () { usePhone(phoneSelect.value); });
  $("identity-toggle").addEventListener("click", function () {
    var panel = $("identity-panel");
    panel.hidden = !panel.hidden;
    if (!panel.hidden) { $("new-phone").value = phone; $("new-name").value = nameOf(phone); $("new-phone").focus(); }
  });
  $("identity-panel").addEventListener("submit", function (e) {
    e.preventDefault();
    var p = $("new-phone").value.replace(/[^0-9]/g, "");
    if (!validPhone(p)) { toast("A phone is 6 to 15 digits, country code first"); return; }
    var n = $("new-name").value.trim();
    if (n) { names[p] = n; save(KEY_NAMES, names); }
    $("identity-panel").hidden = true;
    usePhone(p);
  });

  // ---------- helpers ----------
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function escapeHtml(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }
  // WhatsApp's markup (*bold*, _italic_, ~strike~, triple-backtick mono) and links, over escaped text.
  function formatText(s) {
    var h = escapeHtml(s);
    h = h.replace(/\x60\x60\x60([\s\S]+?)\x60\x60\x60/g, "<code>$1</code>");
    h = h.replace(/(^|[\s(>])\*(?=\S)([^*\n]*?\S)\*(?=$|[\s).,!?:;<])/g, "$1<b>$2</b>");
    h = h.replace(/(^|[\s(>])_(?=\S)([^_\n]*?\S)_(?=$|[\s).,!?:;<])/g, "$1<i>$2</i>");
    h = h.replace(/(^|[\s(>])~(?=\S)([^~\n]*?\S)~(?=$|[\s).,!?:;<])/g, "$1<s>$2</s>");
    h = h.replace(/\bhttps?:\/\/[^\s<]+[^\s<.,!?:;)]/g, function (url) {
      return '<a href="' + url + '" target="_blank" rel="noopener noreferrer">' + url + "</a>";
    });
    return h;
  }
  function textNode(s, cls) {
    var d = el("div", cls || "text");
    d.setAttribute("dir", "auto");
    d.setAttribute("data-testid", "message-text");
    d.innerHTML = formatText(s);
    return d;
  }
  function timeOf(ts) { return new Date(ts).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
  function dayOf(ts) { return new Date(ts).toLocaleDateString([], { weekday: "short", day: "numeric", month: "short", year: "numeric" }); }
  function preview(m) {
    if (!m) return "";
    if (m.text) return m.text;
    if (m.interactive) return m.interactive.body;
    if (m.media) return mediaLabel(m);
    if (m.location) return "Location";
    return m.type;
  }
  function mediaLabel(m) {
    if (m.type === "audio") return m.media.voice ? "Voice message" : "Audio";
    if (m.type === "document") return m.media.filename || "Document";
    return { image: "Photo", sticker: "Sticker", video: "Video" }[m.type] || m.type;
  }
  // "PDF", "DOCX", "TXT": what a document is, from its name, else its type.
  function docKind(name, mimeType) {
    var ext = /\.([a-z0-9]{1,5})$/i.exec(name);
    if (ext) return ext[1].toUpperCase();
    return (mimeType || "file").split(";")[0].split("/").pop().toUpperCase();
  }
  function sizeOf(bytes) {
    if (bytes < 1024) return bytes + " B";
    if (bytes < 1024 * 1024) return Math.round(bytes / 1024) + " KB";
    return (bytes / 1024 / 1024).toFixed(1) + " MB";
  }
  function nearBottom() { return list.scrollHeight - list.scrollTop - list.clientHeight < 120; }
  function scrollDown() { list.scrollTop = list.scrollHeight; }
  var toastTimer = null;
  function toast(msg) {
    toastEl.textContent = msg; toastEl.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toastEl.hidden = true; }, 4500);
  }

  // ---------- rendering ----------
  var TICKS = { sent: "✓", delivered: "✓✓", read: "✓✓", failed: "!" };

  function buildQuote(ctx) {
    var q = el("button", "quote" + (ctx.direction === "in" ? " mine" : ""));
    q.type = "button";
    q.setAttribute("data-testid", "message-quote");
    q.appendChild(el("span", "q-who", ctx.direction === "in" ? "You" : "Memo"));
    var t = el("span", "q-text", ctx.preview || (messages.get(ctx.id) ? preview(messages.get(ctx.id)) : "Message"));
    t.setAttribute("dir", "auto");
    q.appendChild(t);
    q.addEventListener("click", function () {
      var target = rows.get(ctx.id);
      if (!target) return;
      target.scrollIntoView({ block: "center" });
      target.classList.remove("flash"); void target.offsetWidth; target.classList.add("flash");
    });
    return q;
  }

  // A bubble is rebuilt when its ticks change: its media element is kept, so a voice note that is
  // playing goes on playing (and an image does not load again).
  var mediaNodes = new Map();  // message id -> { key, node }
  function buildMedia(m) {
    var key = m.media.path || m.media.link || "";
    var kept = mediaNodes.get(m.id);
    if (kept && kept.key === key) return kept.node;
    var node = buildMediaNode(m);
    mediaNodes.set(m.id, { key: key, node: node });
    return node;
  }
  function buildMediaNode(m) {
    var md = m.media;
    if (md.link && !md.path) {
      var a = el("a", "text", "📎 " + m.type + ": " + md.link);
      // Only web links are followed (never javascript: or data:).
      if (/^https?:/i.test(md.link)) a.href = md.link;
      a.target = "_blank"; a.rel = "noopener noreferrer";
      return a;
    }
    var src = BASE + md.path;
    if (m.type === "image" || m.type === "sticker") {
      var img = el("img", "media" + (m.type === "sticker" ? " sticker" : ""));
      img.alt = m.type; img.src = src;
      img.setAttribute("data-testid", "message-image");
      img.addEventListener("load", function () { if (wasNearBottomOnAppend) scrollDown(); });
      return img;
    }
    if (m.type === "audio") {
      var wrap = el("div");
      if (md.voice) wrap.appendChild(el("div", "voice-label", "Voice message"));
      var au = el("audio", "media");
      au.controls = true; au.preload = "metadata"; au.src = src;
      au.setAttribute("aria-label", (m.direction === "out" ? "Memo's " : "Your ") + (md.voice ? "voice message" : "audio"));
      au.setAttribute("data-testid", "message-audio");
      wrap.appendChild(au);
      return wrap;
    }
    if (m.type === "video") {
      var v = el("video", "media");
      v.controls = true; v.preload = "metadata"; v.src = src;
      return v;
    }
    // WhatsApp shows a document sent without a filename as "Untitled".
    var name = md.filename || "Untitled";
    var d = el("a", "doc");
    d.href = src; d.download = name;
    d.title = "Download " + name;
    d.setAttribute("data-testid", "message-document");
    d.appendChild(el("span", "doc-icon", "📄")).setAttribute("aria-hidden", "true");
    var info = el("span");
    var dn = el("span", "doc-name", name);
    dn.setAttribute("dir", "auto");
    dn.setAttribute("data-testid", "document-name");
    info.appendChild(dn);
    info.appendChild(el("span", "doc-meta", docKind(name, md.mimeType) + " · " + sizeOf(md.fileSize)));
    d.appendChild(info);
    return d;
  }

  // Tappable buttons under a bubble: Memo's reply buttons or a template's quick replies.
  function buildButtons(buttons, tap) {
    var actions = el("div", "actions");
    buttons.forEach(function (b) {
      var btn = el("button", null, b.title);
      btn.type = "button";
      btn.setAttribute("dir", "auto");
      btn.setAttribute("data-testid", "message-button");
      btn.setAttribute("data-id", b.id);
      btn.addEventListener("click", function () { tap(b); });
      actions.appendChild(btn);
    });
    return actions;
  }

  function buildRow(m) {
    var mine = m.direction === "in";
    var row = el("div", "row " + (mine ? "in" : "out"));
    row.setAttribute("data-testid", "message");
    row.setAttribute("data-id", m.id);
    row.setAttribute("data-direction", m.direction);
    row.setAttribute("data-from", mine ? "user" : "memo");
    row.setAttribute("data-type", m.type);
    row.setAttribute("data-status", m.status);
    var bubble = el("div", "bubble");
    row.appendChild(bubble);

    if (m.forwarded) {
      var fwd = el("span", "fwd-label", "↪ Forwarded");
      fwd.setAttribute("data-testid", "message-forwarded");
      bubble.appendChild(fwd);
    }
    if (m.context) bubble.appendChild(buildQuote(m.context));
    if (m.template) bubble.appendChild(el("span", "tag", "Template"));
    if (m.media) bubble.appendChild(buildMedia(m));
    var it = m.interactive;
    if (it && it.header) { var hd = el("div", "header-text", it.header); hd.setAttribute("dir", "auto"); bubble.appendChild(hd); }
    if (m.location) {
      var loc = m.location;
      var label = "📍 " + [loc.name, loc.address].filter(Boolean).join(", ") + " (" + loc.latitude + ", " + loc.longitude + ")";
      bubble.appendChild(textNode(label));
    } else if (it) {
      bubble.appendChild(textNode(it.body));
    } else if (m.text) {
      // A template's first line names it in English; each line takes its own direction.
      bubble.appendChild(textNode(m.text, m.template ? "text template-text" : null));
    } else if (!m.media) {
      bubble.appendChild(textNode("[" + m.type + "]"));
    }
    if (it && it.footer) { var ft = el("div", "footer-text", it.footer); ft.setAttribute("dir", "auto"); bubble.appendChild(ft); }

    var meta = el("div", "meta");
    meta.appendChild(el("span", "time", timeOf(m.timestamp)));
    if (mine) {
      var t = el("span", "ticks", TICKS[m.status] || "");
      t.setAttribute("data-testid", "ticks");
      t.setAttribute("data-status", m.status);
      t.title = m.status;
      meta.appendChild(t);
    }
    bubble.appendChild(meta);

    var reply = el("button", "reply-action", "↩");
    reply.type = "button"; reply.title = "Reply"; reply.setAttribute("aria-label", "Reply");
    reply.setAttribute("data-testid", "reply-action");
    reply.addEventListener("click", function () { setReply(m.id); });
    bubble.appendChild(reply);

    var r = reactions.get(m.id);
    var emojis = r ? [r.out, r.in].filter(Boolean) : [];
    if (emojis.length) {
      var badge = el("span", "reactions", emojis.join(""));
      badge.setAttribute("data-testid", "reaction");
      bubble.appendChild(badge);
      row.classList.add("has-reactions");
    }

    if (it && it.buttons && it.buttons.length) {
      row.appendChild(buildButtons(it.buttons, function (b) {
        send({ type: "interactive", interactive: { type: "button_reply", id: b.id, title: b.title } }, m.id);
      }));
    }
    // A template's quick replies: a tap is a "button" message carrying the payload (the id here).
    var tb = m.template && m.template.buttons;
    if (tb && tb.length) {
      row.appendChild(buildButtons(tb, function (b) {
        send({ type: "button", button: { payload: b.id, text: b.title } }, m.id);
      }));
    }
    if (it && it.list) {
      var la = el("div", "actions");
      var open = el("button", null, "☰ " + it.list.button);
      open.type = "button";
      open.setAttribute("dir", "auto");
      open.setAttribute("data-testid", "list-open");
      open.addEventListener("click", function () { openSheet(m); });
      la.appendChild(open);
      row.appendChild(la);
    }
    if (m.error) {
      var er = el("div", "error", m.error);
      er.setAttribute("data-testid", "message-error");
      row.appendChild(er);
    }
    return row;
  }

  var wasNearBottomOnAppend = true;
  function showEmpty() {
    if (messages.size === 0 && !list.querySelector(".empty")) {
      list.appendChild(el("div", "empty", "No messages yet. Say hi to Memo."));
    }
  }

  function upsert(m) {
    if (m.type === "reaction" && m.reaction) {
      messages.set(m.id, m);
      var r = reactions.get(m.reaction.messageId) || {};
      r[m.direction] = m.reaction.emoji || "";
      reactions.set(m.reaction.messageId, r);
      var target = messages.get(m.reaction.messageId);
      if (target && rows.has(target.id)) replaceRow(target);
      return;
    }
    var existing = rows.get(m.id);
    messages.set(m.id, m);
    if (existing) { replaceRow(m); return; }
    var empty = list.querySelector(".empty");
    if (empty) empty.remove();
    wasNearBottomOnAppend = nearBottom() || m.direction === "in";
    var day = dayOf(m.timestamp);
    if (day !== lastDay) { list.appendChild(el("div", "day", day)); lastDay = day; }
    var row = buildRow(m);
    rows.set(m.id, row);
    list.appendChild(row);
    if (wasNearBottomOnAppend) scrollDown();
  }
  function replaceRow(m) {
    var old = rows.get(m.id);
    if (!old) return;
    var row = buildRow(m);
    rows.set(m.id, row);
    old.replaceWith(row);
  }

  // Messages the simulator dropped past its per-phone limit leave the page too, with their media.
  function evict(ids) {
    ids.forEach(function (id) {
      var row = rows.get(id);
      if (row) row.remove();
      rows.delete(id); messages.delete(id); reactions.delete(id); mediaNodes.delete(id); acked.delete(id);
    });
    showEmpty();
  }

  function reset(snapshot) {
    list.textContent = "";
    messages.clear(); rows.clear(); reactions.clear(); mediaNodes.clear(); lastDay = null;
    snapshot.messages.forEach(upsert);
    showEmpty();
    setTyping(!!snapshot.typing);
    scrollDown();
  }

  function setTyping(on) {
    typing = on;
    $("typing").hidden = !on;
    renderStatus();
  }
  // "connecting" until the stream's first snapshot, "online" while it stands, "offline" when the
  // stream or a send failed; the banner says what that means for the user.
  var connection = "connecting";
  function setConnection(state, message) {
    connection = state;
    root.setAttribute("data-connected", state === "online" ? "true" : "false");
    banner.hidden = state !== "offline";
    if (state === "offline" && message) banner.textContent = message;
    if (state !== "online") typing = false;
    renderStatus();
  }
  function renderStatus() {
    var sub = statusEl.parentNode;
    var showTyping = typing && connection === "online";
    statusEl.textContent = showTyping ? "typing…" : connection === "online" ? "online" : connection === "offline" ? "offline" : "connecting…";
    sub.classList.toggle("typing", showTyping);
    sub.classList.toggle("offline", connection === "offline");
    statusEl.setAttribute("data-state", showTyping ? "typing" : connection);
  }

  // ---------- read acks: Memo's messages this page has shown ----------
  var ackTimer = null;
  function scheduleAck() {
    clearTimeout(ackTimer);
    ackTimer = setTimeout(ack, 250);
  }
  function ack() {
    if (document.visibilityState !== "visible") return;
    var ids = [];
    messages.forEach(function (m) {
      if (m.direction === "out" && m.status !== "read" && m.status !== "failed" && !acked.has(m.id)) ids.push(m.id);
    });
    if (!ids.length) return;
    ids.forEach(function (id) { acked.add(id); });
    fetch(BASE + "api/read", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ phone: phone, ids: ids }) })
      .catch(function () { ids.forEach(function (id) { acked.delete(id); }); });
  }
  document.addEventListener("visibilitychange", scheduleAck);

  // ---------- live stream ----------
  function connect() {
    generation++;
    var mine = generation;
    clearTimeout(retryTimer);
    if (es) es.close();
    list.textContent = ""; messages.clear(); rows.clear(); reactions.clear(); mediaNodes.clear(); lastDay = null;
    setTyping(false);
    if (connection !== "offline") setConnection("connecting");
    es = new EventSource(BASE + "events?phone=" + encodeURIComponent(phone));
    es.addEventListener("snapshot", function (e) {
      if (mine !== generation) return;
      retryDelay = 1000;
      setConnection("online");
      reset(JSON.parse(e.data));
      scheduleAck();
    });
    es.addEventListener("message", function (e) {
      if (mine !== generation) return;
      var m = JSON.parse(e.data);
      upsert(m);
      if (m.direction === "out" && m.type !== "reaction") setTyping(false);
      scheduleAck();
    });
    es.addEventListener("evicted", function (e) {
      if (mine !== generation) return;
      evict(JSON.parse(e.data).ids);
    });
    es.addEventListener("typing", function (e) {
      if (mine !== generation) return;
      setTyping(!!JSON.parse(e.data).typing);
    });
    es.onerror = function () {
      if (mine !== generation) return;
      setConnection("offline", "Connection lost. Reconnecting…");
      // EventSource retries by itself unless the server refused the stream (404, 503).
      if (es.readyState === EventSource.CLOSED) {
        setConnection("offline", "The simulator is not answering. Retrying…");
        retryTimer = setTimeout(function () { if (mine === generation) connect(); }, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 10000);
      }
    };
  }

  // ---------- sending ----------
  function send(body, quoteId) {
    body.phone = phone;
    body.name = nameOf(phone);
    var reply = quoteId || replyTo;
    if (reply) body.replyTo = reply;
    setReply(null);
    return fetch(BASE + "api/messages", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (data) {
          if (!res.ok) toast((data && data.message) || ("The simulator answered HTTP " + res.status));
          else if (data.error) toast(data.error);
          return res.ok;
        });
      })
      .catch(function () {
        toast("Not sent: the simulator is not answering. Is Memo running?");
        setConnection("offline", "Cannot reach the simulator. Reconnecting…");
        return false;
      });
  }

  function sendComposer() {
    var text = input.value;
    var a = attachment;
    var quote = replyTo;
    var body;
    if (a) {
      body = { type: a.type, media: { base64: a.base64, mimeType: a.mimeType, filename: a.filename } };
      if (text.trim()) body.caption = text.trim();
    } else if (text.trim()) {
      body = { type: "text", text: text };
    } else {
      return;
    }
    // The toggle marks this one message forwarded, as WhatsApp's forward does, then turns off.
    var forwarded = forwardedBox.checked;
    if (forwarded) body.forwarded = true;
    forwardedBox.checked = false;
    setAttachment(null);
    input.value = ""; autosize();
    send(body).then(function (ok) {
      if (ok) return;
      if (forwarded) forwardedBox.checked = true;
      // Not sent (server down, or refused): what was typed comes back, unless something new was.
      if (!input.value) { input.value = text; autosize(); }
      if (a && !attachment) setAttachment(a);
      if (quote && !replyTo) setReply(quote);
    });
  }
  sendBtn.addEventListener("click", function () { sendComposer(); input.focus(); });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); sendComposer(); }
    if (e.key === "Escape") { setReply(null); setAttachment(null); }
  });
  function autosize() { input.style.height = "auto"; input.style.height = Math.min(input.scrollHeight, 140) + "px"; }
  input.addEventListener("input", autosize);

  function setReply(id) {
    replyTo = id && messages.has(id) ? id : null;
    var bar = $("reply-bar");
    bar.hidden = !replyTo;
    if (!replyTo) return;
    var m = messages.get(replyTo);
    var q = bar.querySelector(".quote");
    q.className = "quote" + (m.direction === "in" ? " mine" : "");
    q.querySelector(".q-who").textContent = m.direction === "in" ? "You" : "Memo";
    q.querySelector(".q-text").textContent = preview(m);
    input.focus();
  }
  $("reply-cancel").addEventListener("click", function () { setReply(null); });

  function readFile(file) {
    return new Promise(function (resolve, reject) {
      var reader = new FileReader();
      reader.onload = function () { resolve(String(reader.result).replace(/^data:[^,]*,/, "")); };
      reader.onerror = function () { reject(reader.error); };
      reader.readAsDataURL(file);
    });
  }
  function setAttachment(a) {
    attachment = a;
    var bar = $("attachment-bar");
    bar.hidden = !a;
    input.placeholder = a ? "Add a caption…" : "Message";
    if (!a) return;
    var img = bar.querySelector("img");
    img.hidden = a.type !== "image";
    bar.querySelector(".doc-icon").hidden = a.type === "image";
    if (a.type === "image") img.src = "data:" + a.mimeType + ";base64," + a.base64;
    else img.removeAttribute("src");
    bar.querySelector(".name").textContent = a.type === "image" ? (a.filename || "Photo") : (a.filename || "document") + " · " + sizeOf(a.size || 0);
    input.focus();
  }
  $("attachment-cancel").addEventListener("click", function () { setAttachment(null); });
  // The page sends a file as base64 inside a 25 MB request: a larger file is refused unread.
  var FILE_LIMIT = 18 * 1024 * 1024;
  // Reads a picked file for the chat it was picked in: a later pick or a switch of phone drops it.
  function pick(file, use) {
    if (file.size > FILE_LIMIT) {
      toast("That file is " + sizeOf(file.size) + ": the simulator takes files up to 18 MB");
      return;
    }
    var mine = ++picks, at = phone;
    readFile(file).then(function (b64) {
      if (mine === picks && at === phone) use(b64);
    }, function () { if (mine === picks && at === phone) toast("Could not read the file"); });
  }
  $("attach-image").addEventListener("change", function (e) {
    var file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!file) return;
    if (!/^image\//.test(file.type)) { toast("That is not an image"); return; }
    pick(file, function (b64) {
      setAttachment({ type: "image", base64: b64, mimeType: file.type, filename: file.name });
    });
  });
  // What a browser leaves without a type: the documents WhatsApp sends, by extension.
  var DOC_TYPES = {
    pdf: "application/pdf", txt: "text/plain", doc: "application/msword",
    docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    md: "text/markdown", csv: "text/csv",
    xls: "application/vnd.ms-excel", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ppt: "application/vnd.ms-powerpoint", pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation"
  };
  // The paperclip: a photo goes as an image message, anything else as a document with its name.
  $("attach-file").addEventListener("change", function (e) {
    var file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!file) return;
    var ext = /\.([a-z0-9]+)$/i.exec(file.name);
    var type = file.type || (ext && DOC_TYPES[ext[1].toLowerCase()]) || "application/octet-stream";
    var kind = /^image\//.test(type) ? "image" : "document";
    pick(file, function (b64) {
      setAttachment({ type: kind, base64: b64, mimeType: type, filename: file.name, size: file.size });
    });
  });
  $("attach-audio").addEventListener("change", function (e) {
    var file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!file) return;
    pick(file, function (b64) {
      send({ type: "audio", voice: false, media: { base64: b64, mimeType: file.type || "audio/mpeg", filename: file.name } });
    });
  });

  // ---------- voice notes ----------
  var recorder = null, recStarted = 0, recTicker = null;
  var recordBtn = $("record"), recTime = $("rec-time");
  if (!window.MediaRecorder || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    recordBtn.hidden = true;
  }
  recordBtn.addEventListener("click", function () {
    if (recorder) { recorder.stop(); return; }
    navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
      var preferred = ["audio/ogg;codecs=opus", "audio/webm;codecs=opus", "audio/mp4"].filter(function (t) {
        return MediaRecorder.isTypeSupported && MediaRecorder.isTypeSupported(t);
      })[0];
      var chunks = [];
      recorder = preferred ? new MediaRecorder(stream, { mimeType: preferred }) : new MediaRecorder(stream);
      recorder.ondataavailable = function (e) { if (e.data && e.data.size) chunks.push(e.data); };
      recorder.onstop = function () {
        var type = (recorder.mimeType || preferred || "audio/webm").replace(/\s+/g, "");
        stream.getTracks().forEach(function (t) { t.stop(); });
        recorder = null;
        clearInterval(recTicker); recTime.hidden = true;
        recordBtn.classList.remove("recording"); recordBtn.title = "Record a voice note";
        var blob = new Blob(chunks, { type: type });
        if (!blob.size) { toast("Nothing was recorded"); return; }
        readFile(blob).then(function (b64) {
          send({ type: "audio", voice: true, media: { base64: b64, mimeType: type } });
        });
      };
      recorder.start();
      recStarted = Date.now();
      recordBtn.classList.add("recording"); recordBtn.title = "Stop and send";
      recTime.hidden = false; recTime.textContent = "0:00";
      recTicker = setInterval(function () {
        var s = Math.floor((Date.now() - recStarted) / 1000);
        recTime.textContent = Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
      }, 500);
    }, function (err) { toast("No microphone: " + (err && err.message ? err.message : err)); });
  });

  // ---------- list sheet ----------
  function openSheet(m) {
    var it = m.interactive;
    var card = sheet.querySelector(".rows");
    card.textContent = "";
    sheet.querySelector(".sheet-title span").textContent = it.list.button;
    it.list.sections.forEach(function (section) {
      if (section.title) { var st = el("div", "section-title", section.title); st.setAttribute("dir", "auto"); card.appendChild(st); }
      section.rows.forEach(function (r) {
        var b = el("button", "list-row");
        b.type = "button";
        b.setAttribute("dir", "auto");
        b.setAttribute("data-testid", "list-row");
        b.setAttribute("data-id", r.id);
        b.appendChild(el("span", "row-title", r.title));
        if (r.description) b.appendChild(el("span", "row-desc", r.description));
        b.addEventListener("click", function () {
          closeSheet();
          var choice = { type: "list_reply", id: r.id, title: r.title };
          if (r.description) choice.description = r.description;
          send({ type: "interactive", interactive: choice }, m.id);
        });
        card.appendChild(b);
      });
    });
    sheet.hidden = false;
  }
  function closeSheet() { sheet.hidden = true; }
  $("list-close").addEventListener("click", closeSheet);
  sheet.addEventListener("click", function (e) { if (e.target === sheet) closeSheet(); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") closeSheet(); });

  renderPhones();
  usePhone(phone);
})();
`;

const BODY = String.raw`
<div id="app" data-testid="chat" data-connected="false">
  <header class="top">
    <div class="avatar" aria-hidden="true">M</div>
    <div class="who">
      <div class="title">Memo</div>
      <div class="sub"><span id="status" data-testid="chat-status" data-state="connecting">connecting…</span><span class="sim-label"> · simulator</span></div>
      <span id="typing" data-testid="typing" hidden></span>
    </div>
    <div class="identity">
      <label><span class="me-label">You </span><select id="phone" data-testid="phone-select" aria-label="Your phone"></select></label>
      <button id="identity-toggle" class="icon-btn" type="button" title="Add a phone or set your name" data-testid="phone-add-toggle"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z"/></svg></button>
    </div>
  </header>
  <form id="identity-panel" class="panel" hidden data-testid="phone-add-form">
    <input id="new-phone" inputmode="numeric" autocomplete="off" placeholder="Phone, digits (972501234567)" data-testid="phone-add-input" aria-label="Phone">
    <input id="new-name" autocomplete="off" placeholder="Your name" data-testid="name-input" aria-label="Name" dir="auto">
    <button type="submit" data-testid="phone-add-button">Use</button>
  </form>
  <div id="banner" class="banner" hidden data-testid="connection-banner"></div>
  <main id="messages" data-testid="messages" aria-live="polite"></main>
  <div id="reply-bar" class="bar" hidden data-testid="reply-bar">
    <div class="quote"><span class="q-who"></span><span class="q-text" dir="auto"></span></div>
    <button id="reply-cancel" class="icon-btn" type="button" title="Cancel reply" data-testid="reply-cancel">✕</button>
  </div>
  <div id="attachment-bar" class="bar" hidden data-testid="attachment-bar">
    <img alt=""><span class="doc-icon" aria-hidden="true" hidden>📄</span><span class="name" dir="auto" data-testid="attachment-name"></span>
    <button id="attachment-cancel" class="icon-btn" type="button" title="Remove" data-testid="attachment-cancel">✕</button>
  </div>
  <footer class="composer">
    <label class="icon-btn" title="Attach a document or photo"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5H9v9a3 3 0 0 0 6 0V5a4.5 4.5 0 0 0-9 0v11.5a6 6 0 0 0 12 0v-10h-1.5z"/></svg><input id="attach-file" class="visually-hidden" type="file" accept=".pdf,.docx,.doc,.txt,.md,.csv,.xlsx,.xls,.pptx,.ppt,application/pdf,text/plain,text/markdown,text/csv,image/*" aria-label="Attach a document or photo" data-testid="attach-document"></label>
    <label class="icon-btn attach-image-btn" title="Send an image"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" fill-rule="evenodd" d="M9 4 7.2 6H4a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-3.2L15 4H9zm3 4.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z"/></svg><input id="attach-image" class="visually-hidden" type="file" accept="image/*" aria-label="Send an image" data-testid="attach-image"></label>
    <label class="icon-btn" title="Send an audio file"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M10 3h9v4h-7v10.5A3.5 3.5 0 1 1 10 14.4V3z"/></svg><input id="attach-audio" class="visually-hidden" type="file" accept="audio/*" aria-label="Send an audio file" data-testid="attach-audio"></label>
    <label class="fwd-toggle" title="Send the next message as forwarded (the webhook's context.forwarded)"><input id="forwarded" type="checkbox" aria-label="Send as forwarded" data-testid="forwarded-toggle"><span aria-hidden="true">↪</span><span class="fwd-text">Forwarded</span></label>
    <textarea id="composer" rows="1" dir="auto" placeholder="Message" aria-label="Message" data-testid="composer-input"></textarea>
    <span id="rec-time" class="rec-time" hidden></span>
    <button id="record" class="icon-btn" type="button" title="Record a voice note (click again to send)" data-testid="record-button"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11h-2z"/></svg></button>
    <button id="send" class="icon-btn send" type="button" title="Send" aria-label="Send" data-testid="send-button"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M3 20.5 21 12 3 3.5V10l12 2-12 2z"/></svg></button>
  </footer>
  <div id="sheet" class="sheet" hidden data-testid="list-sheet">
    <div class="sheet-card" role="dialog" aria-modal="true">
      <div class="sheet-title"><button id="list-close" class="icon-btn" type="button" title="Close" data-testid="list-close">✕</button><span dir="auto" data-testid="list-title"></span></div>
      <div class="rows"></div>
    </div>
  </div>
  <div id="toast" class="toast" hidden role="status" data-testid="toast"></div>
</div>
`;

/** The chat page served at the simulator's root. */
export const CHAT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#008069">
<title>Memo · WhatsApp simulator</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${BODY}
<script>${SCRIPT}</script>
</body>
</html>
`;
