# One image for api, worker and cli (production mode: EventStoreDB + MongoDB, see docker-compose.yml).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json .swcrc nest-cli.json ./
COPY apps apps
COPY libs libs
RUN npx swc apps libs -d dist --config-file .swcrc --copy-files --quiet

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# The image's own Node 24 is the runtime: skip devDependencies (including the `node` package).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
