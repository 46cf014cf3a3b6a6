# Memo in production on the official Node.js 24 LTS slim image (docs/OPERATIONS.md, "Running it
# in a container"). The tag names the same Node version as scripts/node/package.json and .nvmrc.
FROM node:24.22.3-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24.22.3-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR (./data) is only for the embedded database and the simulator, which production does not
# use; it is created for the unprivileged user so that a non-production trial run can write it.
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
STOPSIGNAL SIGTERM
CMD ["node", "dist/index.js"]
