# syntax=docker/dockerfile:1.7
# chessd: the gRPC game server. Build: docker build -t chessd .
#                                 Run:   docker run --rm -p 50051:50051 chessd

# Build stage: the binary in the `dist` profile (whole-program LTO) from the locked dependency
# set (protox compiles the protos, so no protoc is needed). The cache mounts keep the registry
# and target dir between builds.
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --profile dist --locked --bin chessd \
    && cp target/dist/chessd /usr/local/bin/chessd

# Runtime stage: a small Debian with only the binary, run as an unprivileged user.
FROM debian:bookworm-slim
RUN groupadd --system --gid 10001 chessd \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin chessd
COPY --from=build /usr/local/bin/chessd /usr/local/bin/chessd
USER 10001:10001
ENV CHESSD_LISTEN=0.0.0.0:50051 \
    CHESSD_LOG_FORMAT=json
EXPOSE 50051
# chessd drains on SIGTERM (health NOT_SERVING, streams told where to resume) and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/chessd"]
CMD ["serve"]
