/**
 * A reference made of a pronoun only ("it", "them", "that one", "there", "זה", "אותם", "לשם"):
 * it names nothing of its own, so it points at something already in the conversation: within one
 * message, what an earlier step produced (D13).
 */
const PRONOUN_ONLY =
  /^(?:it|its|them|they|this|that|these|those|this one|that one|the same|there|in it|to it|on it|זה|זו|זאת|הזה|הזאת|אותו|אותה|אותם|אותן|אליו|אליה|אליהם|אליהן|בו|בה|בהם|בהן|שם|לשם|לתוכה|לתוכו)$/iu;

/** Whether `words` is only a pronoun (case, spaces and surrounding punctuation aside). */
export function isPronounOnly(words: string): boolean {
  const text = words
    .trim()
    .replace(/^[\s"'“”‘’.,!?:;()-]+|[\s"'“”‘’.,!?:;()-]+$/gu, "")
    .replace(/\s+/gu, " ");
  return PRONOUN_ONLY.test(text);
}
