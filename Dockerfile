# CashoutSandbox container image: the `cashout-sandbox` server on port 8080.
#
#   docker build -t cashout-sandbox .
#   docker run --rm -p 8080:8080 cashout-sandbox
#   curl http://localhost:8080/sandbox/health
#
# .ci/dockerfile-check runs this file's build steps and the resulting binary locally (the CI
# machine has no Docker engine), so keep every RUN in the build stage runnable as plain bash on
# a Linux host with a Swift toolchain, and keep /build as the build stage's only absolute path.

# ---- Build stage: the official Swift toolchain image --------------------------------------------
FROM swift:6.3-noble AS build
WORKDIR /build

# Copy only what the build needs, never `COPY . .`: the repository has no .dockerignore (its top
# level is kept to the package files), so `COPY . .` would send a host's .build/ directory (GBs of
# objects built for another machine) into the image and break or bloat the build.
COPY Package.swift ./
COPY Sources ./Sources
# Tests/ is copied although nothing here builds it: SwiftPM checks that every target declared in
# Package.swift has its source folder, even with --product, and fails on the missing test folders.
COPY Tests ./Tests
# scenarios/ holds the JSON scenario files the server can load at run time.
COPY scenarios ./scenarios

# --static-swift-stdlib links the Swift runtime and FoundationEssentials into the binary, so the runtime
# image needs no Swift toolchain and no libswift*.so: only glibc, libstdc++ and friends, which
# every Ubuntu base image has.
RUN swift build -c release --static-swift-stdlib --product cashout-sandbox

# Copy the binary to a fixed path (the bin path depends on the target triple) for the next stage.
RUN mkdir -p /build/out \
    && cp "$(swift build -c release --static-swift-stdlib --show-bin-path)/cashout-sandbox" /build/out/cashout-sandbox \
    && /build/out/cashout-sandbox --version

# ---- Runtime stage: plain Ubuntu, same release as the build image (glibc must match) ------------
FROM ubuntu:noble AS runtime

# ca-certificates for outgoing TLS, tzdata for time zones. No libcurl/libxml2: the product does
# not import FoundationNetworking or FoundationXML. DEBIAN_FRONTEND only for this command: tzdata
# would otherwise ask for a time zone. Versions are not pinned: noble's archive drops old ones.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/*

# Run as an unprivileged user (numeric USER below so runAsNonRoot-style checks can verify it).
RUN groupadd --system --gid 10001 sandbox \
    && useradd --system --uid 10001 --gid sandbox --home-dir /app --no-create-home --shell /usr/sbin/nologin sandbox

WORKDIR /app
COPY --from=build /build/out/cashout-sandbox /usr/local/bin/cashout-sandbox
COPY --from=build /build/scenarios /app/scenarios

USER 10001:10001
EXPOSE 8080

# The server defaults to localhost, which inside a container is unreachable through a published
# port: bind 0.0.0.0. It waits for SIGTERM/SIGINT with sigwait, so it stops cleanly as PID 1
# (`docker stop`) without an init process.
ENTRYPOINT ["cashout-sandbox"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
