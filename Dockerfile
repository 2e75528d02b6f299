# servebench as a container image, for `servebench kube` (docs/sharding.md: Sharded runs on Kubernetes).
# Build stage: the full official Node image has python3, make and g++, which node-gyp needs to build
# the C++ addon; `npm ci` builds it (the install script) and the TypeScript (the prepare script).
FROM node:20-bookworm AS build
# node-gyp takes the headers the image ships rather than downloading them.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json binding.gyp tsconfig.json tsconfig.build.json ./
COPY native ./native
COPY src ./src
COPY bin ./bin
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

# Run stage: the same Debian release (the addon links against its glibc and libstdc++), without the compilers.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
RUN ln -s /app/bin/servebench.js /usr/local/bin/servebench && chmod 0755 /app/bin/servebench.js
# The image's own unprivileged user (uid 1000); the manifests run the pods as it, with fsGroup 1000.
USER node
ENTRYPOINT ["servebench"]
CMD ["--help"]
