# Aigis: the API serving the built web app.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY test-support/package.json test-support/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
# Inside a container the app must listen on every interface (the published port decides who reaches it).
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
COPY --from=build /app /app
VOLUME /data
EXPOSE 3000
CMD ["node", "backend/dist/src/main.js"]
