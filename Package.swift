// swift-tools-version: 6.1
import Foundation
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "authflow",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "authflow", targets: ["authflow"])
  ],
  dependencies: [
    // Tests only (AuthFlowYAMLTests' oracle): no source target links Yams (see `CLibYAML`).
    .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.90.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    // The embedded mock is stopped by graceful shutdown of its service group, not by cancellation.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    // `authflow monitor`'s /metrics: the Prometheus text format (swift-metrics and swift-atomics,
    // which the server stack builds already).
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    // Spans of scenario runs, steps and HTTP exchanges (the Tracing API only; Hummingbird builds
    // it already), with the trace context sent to the tenant.
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    // Those spans exported over OTLP/HTTP (`--otlp-endpoint`): only the HTTP exporter's trait, no
    // gRPC (docs/monitor.md, "Traces", has the build time it adds).
    .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
  ],
  targets: [
    // Values, locations, diagnostics and secrets: the vocabulary every stage shares.
    .target(name: "AuthFlowCore", swiftSettings: swiftSettings),
    // The `${{ … }}` language.
    .target(name: "AuthFlowExpression", dependencies: ["AuthFlowCore"], swiftSettings: swiftSettings),
    // libyaml's event parser, the system's (`apt-get install libyaml-dev`). Declared here rather
    // than reached through Yams, whose bundled libyaml (`CYaml`) is no product of Yams; and
    // AuthFlowYAML types scalars itself, so that the product links one libyaml, not Yams' copy
    // beside the system's.
    .systemLibrary(
      name: "CLibYAML",
      path: "Sources/CLibYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"])]
    ),
    // The YAML reader every loader shares (scenarios, `authflow.yaml`, mock fixtures): a located
    // node tree, its resource limits and its diagnostics.
    .target(name: "AuthFlowYAML", dependencies: ["AuthFlowCore", "CLibYAML"], swiftSettings: swiftSettings),
    // Located YAML → scenario model, diagnostics, validation, flow graph, tenant profiles.
    .target(
      name: "AuthFlowScenario",
      dependencies: ["AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML"],
      swiftSettings: swiftSettings
    ),
    // JWT/JWS/JWK: parse, verify, sign; OIDC ID-token rules.
    .target(
      name: "AuthFlowJOSE",
      dependencies: [
        "AuthFlowCore",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    // One transport protocol with AsyncHTTPClient behind it, cookie jar, HTML forms.
    .target(
      name: "AuthFlowHTTP",
      dependencies: [
        "AuthFlowCore", "CLibXML2",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        // Named so that transport errors (connection, TLS, timeouts) can be told apart.
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        // The DevTools protocol's WebSocket, to drive a headless chromium (`browser: chromium`).
        .product(name: "NIOWebSocket", package: "swift-nio"),
        // A client span per exchange, the trace context injected into the request.
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ],
      swiftSettings: swiftSettings
    ),
    // The mock tenant: an Auth0-compatible authorization server.
    .target(
      name: "AuthFlowMockTenant",
      dependencies: [
        "AuthFlowCore", "AuthFlowJOSE", "AuthFlowYAML", "AuthFlowMail",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        // The connection limits (431, closing after 413) sit in the channel pipeline.
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      resources: [.copy("Resources")],
      swiftSettings: swiftSettings
    ),
    // authflow's own mail receiver: an ESMTP server (STARTTLS, AUTH, SIZE, PIPELINING), a MIME
    // decoder and a bounded message store, on SwiftNIO; and an IMAP4rev1 client. No HTTP, no
    // authflow vocabulary: bytes and messages.
    .target(
      name: "AuthFlowMail",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        // The IMAP client waits for NIOSSL's handshake-completed event, which NIOTLS declares.
        .product(name: "NIOTLS", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: swiftSettings
    ),
    // `authflow inbox` and the receiver a run starts for `inbox.smtp`: the SMTP receiver and an HTTP
    // API (messages, webhooks) over one store.
    .target(
      name: "AuthFlowInbox",
      dependencies: [
        "AuthFlowCore", "AuthFlowExpression", "AuthFlowMail",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    // What a run produced (run, scenario and step reports, statuses, shards, the comparison of
    // tenants): all a reporter reads.
    .target(
      name: "AuthFlowResults",
      dependencies: ["AuthFlowCore", "AuthFlowScenario"],
      swiftSettings: swiftSettings
    ),
    // Interpreter, execution context, actions, assertions.
    .target(
      name: "AuthFlowRuntime",
      dependencies: [
        "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowJOSE",
        "AuthFlowHTTP",
        .product(name: "Logging", package: "swift-log"),
        // A span per scenario run and per step.
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ],
      swiftSettings: swiftSettings
    ),
    // The embedded mock tenant behind the runtime's `EmbeddedTenantHost`, injected by the executable,
    // `authflow bench` and the tests: the one module that links both the runtime and the mock.
    .target(
      name: "AuthFlowMockHosting",
      dependencies: ["AuthFlowCore", "AuthFlowRuntime", "AuthFlowMockTenant", "AuthFlowMail"],
      swiftSettings: swiftSettings
    ),
    // Console, JUnit, JSON, GitHub and HTML reporters (the HTML report lays out the flow graph and
    // hashes its inline script and style for its Content-Security-Policy).
    .target(
      name: "AuthFlowReporting",
      dependencies: [
        "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings),
    // The run as a library: one ``RunSession`` from a ``RunConfiguration`` (tenants, options,
    // reporters, observers) to reports and an exit code; `authflow run`, `report merge` and the
    // tests all call it.
    .target(
      name: "AuthFlowRun",
      dependencies: [
        "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowReporting",
        "AuthFlowMockHosting", "AuthFlowInbox", "AuthFlowMail",
        // The run's tracer, set for its tasks (RunConfiguration.tracer).
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ],
      swiftSettings: swiftSettings),
    // `authflow monitor`: a prepared run on a schedule, its results as Prometheus metrics, a status
    // page and a JSON API, stopped gracefully on SIGTERM, reloaded on SIGHUP.
    .target(
      name: "AuthFlowMonitor",
      dependencies: [
        "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowReporting",
        "AuthFlowRun", "AuthFlowJOSE",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings),
    // `--otlp-endpoint`: the run's spans exported over OTLP/HTTP by swift-otel.
    .target(
      name: "AuthFlowTelemetry",
      dependencies: [
        .product(name: "OTel", package: "swift-otel"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings),
    // `authflow bench`: the docs/design.md §7 speed measures (child processes, in-process login flows).
    .target(
      name: "AuthFlowBenchmark",
      dependencies: [
        "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowMockTenant",
        "AuthFlowMockHosting", "AuthFlowJOSE",
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "authflow",
      dependencies: [
        "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime",
        "AuthFlowReporting",
        "AuthFlowMockTenant", "AuthFlowMockHosting", "AuthFlowJOSE", "AuthFlowHTTP", "AuthFlowBenchmark", "AuthFlowRun",
        "AuthFlowInbox", "AuthFlowMail", "AuthFlowMonitor", "AuthFlowTelemetry",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      // The release binary links the Swift runtime, Foundation and dispatch statically (compiled
      // with the flag too, so that Foundation's static libraries are linked) and keeps its symbols
      // out of the dynamic table: a cold start without binding the toolchain's shared libraries,
      // and fewer resident pages in every run (docs/benchmarks.md, "The release binary"). It is
      // linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc ≥ 2.36):
      // 3.4 MB of relocation records that every start read and kept resident become 29 kB
      // (docs/benchmarks.md, "Relocations packed"). Debug builds and tests link as usual.
      swiftSettings: swiftSettings + [
        .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
      ],
      linkerSettings: [
        .unsafeFlags(
          [
            "-static-stdlib", "-Xlinker", "--no-export-dynamic", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker",
            "pack-relative-relocs",
          ], .when(platforms: [.linux], configuration: .release))
      ]
    ),

    // Test helpers: marked-position YAML, snapshot comparison, a loopback HTTP server.
    .target(
      name: "AuthFlowTestSupport",
      dependencies: [
        "AuthFlowCore", .product(name: "Hummingbird", package: "hummingbird"),
        // Hostile tenants: raw sockets that hang, trickle, reset or speak bad TLS.
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      path: "Tests/AuthFlowTestSupport",
      swiftSettings: swiftSettings
    ),
    testTarget("AuthFlowCoreTests", ["AuthFlowCore"]),
    testTarget("AuthFlowExpressionTests", ["AuthFlowExpression"]),
    // Yams: the two-pass loader the one-pass one replaced, and Yams' own scalar constructors, kept as
    // the oracles of differential tests. The test binary therefore holds two copies of libyaml's C
    // symbols: Yams' bundled `CYaml` objects and the system's libyaml.so (through CLibYAML). The
    // linker binds every `yaml_*` call to the objects linked into the binary, so in the tests both
    // AuthFlowYAML and the oracle run Yams' copy (the same API and structures: libyaml 0.2.5 plus
    // a nesting limit far past `InputLimits.yamlDepth`); the `authflow` binary, without Yams, runs
    // the system's. Acceptable for an oracle; never add Yams to a source target.
    testTarget("AuthFlowYAMLTests", ["AuthFlowYAML", "CLibYAML", .product(name: "Yams", package: "Yams")]),
    testTarget("AuthFlowScenarioTests", ["AuthFlowScenario"], resources: [.copy("Fixtures")]),
    testTarget("AuthFlowJOSETests", ["AuthFlowJOSE"]),
    testTarget("AuthFlowHTTPTests", ["AuthFlowHTTP", .product(name: "Hummingbird", package: "hummingbird")]),
    testTarget(
      "AuthFlowMockTenantTests",
      ["AuthFlowMockTenant", "AuthFlowJOSE", .product(name: "HummingbirdTesting", package: "hummingbird")]
    ),
    testTarget(
      "AuthFlowRuntimeTests",
      [
        "AuthFlowRuntime", "AuthFlowResults", "AuthFlowReporting", "AuthFlowMockTenant", "AuthFlowMockHosting",
        "AuthFlowRun", "AuthFlowInbox", "AuthFlowMail", .product(name: "Hummingbird", package: "hummingbird"),
        // A third-party tracer that keeps its spans, for the tracing tests.
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ]
    ),
    testTarget("AuthFlowReportingTests", ["AuthFlowReporting", "AuthFlowResults"]),
    testTarget(
      "AuthFlowMailTests",
      [
        "AuthFlowMail", .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]),
    testTarget("AuthFlowInboxTests", ["AuthFlowInbox", "AuthFlowMail", "AuthFlowCore"]),
    testTarget(
      "AuthFlowMonitorTests", ["AuthFlowMonitor", "AuthFlowRun", "AuthFlowResults", "AuthFlowScenario", "AuthFlowCore"]),
    testTarget(
      "AuthFlowBenchmarkTests",
      ["AuthFlowBenchmark", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowMockHosting", "AuthFlowScenario"]
    ),
    // The layer rules of docs/architecture.md, on the target graph `swift package dump-package` prints.
    testTarget("AuthFlowArchitectureTests", []),
    // The exit-code contract, end to end: launches the built `authflow` beside the test bundle.
    testTarget("AuthFlowCLITests", ["AuthFlowCore"]),
  ]
)

/// A test target mirroring a module: snapshots live beside the tests, excluded from the build.
func testTarget(
  _ name: String, _ dependencies: [Target.Dependency], resources: [Resource]? = nil
) -> Target {
  .testTarget(
    name: name,
    dependencies: dependencies + ["AuthFlowTestSupport"],
    // Snapshot folders are data, not sources; a target that has none excludes nothing (an exclude of
    // a missing folder is a warning in every build).
    exclude: FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/Tests/\(name)/__Snapshots__")
      ? ["__Snapshots__"] : [],
    resources: resources,
    swiftSettings: swiftSettings
  )
}
