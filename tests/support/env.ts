/** Every setting NODE_ENV=production requires, with harmless values. */
export const PRODUCTION_ENV = {
  NODE_ENV: "production",
  DATABASE_URL: "postgresql://memo@db:5432/memo",
  WHATSAPP_APP_SECRET: "s",
  WHATSAPP_ACCESS_TOKEN: "t",
  WHATSAPP_VERIFY_TOKEN: "v",
  WHATSAPP_PHONE_NUMBER_ID: "1234567890",
  OPENAI_API_KEY: "k",
  TOKEN_ENCRYPTION_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
} as const;
