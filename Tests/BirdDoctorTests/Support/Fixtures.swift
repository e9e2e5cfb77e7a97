import BirdDoctor
import BirdDoctorRunner
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

/// Sandboxes and targets for runner tests.
enum Fixture {
    /// A started sandbox on a free loopback port (TLS with `certificates`).
    static func sandbox(dialect: Dialect = .bird, certificates: TestCertificates? = nil) throws -> Sandbox {
        let sandbox = try Sandbox(
            configuration: SandboxConfiguration(
                host: "127.0.0.1", port: 0, dialect: dialect, tlsCertificateFile: certificates?.certificateFile,
                tlsPrivateKeyFile: certificates?.keyFile))
        try sandbox.start()
        return sandbox
    }

    /// The target `bird-inspect doctor --sandbox` builds for `sandbox` (demo endpoints, secret known).
    /// Unless the test sets one, the step time is 30 s: a step's "slow" warning starts at half of
    /// it, and a loaded CI machine must not turn a healthy sandbox's auth answer into a warning.
    static func target(_ sandbox: Sandbox, _ options: DoctorOptions = DoctorOptions()) -> DoctorTarget {
        let endpoints = sandbox.endpoints
        var o = options
        if o.timeoutSeconds == DoctorOptions.defaultTimeoutSeconds { o.timeoutSeconds = 30 }
        o.dialect = sandbox.configuration.dialect
        return o.sandboxTarget(
            host: endpoints.host, port: endpoints.port, appKey: endpoints.appKey, authEndpoint: endpoints.authEndpoint,
            memberAuthEndpoint: endpoints.memberAuthEndpoint, secret: sandbox.configuration.appSecret)
    }

    /// A target for a TLS sandbox reached as `localhost` (auth endpoints over https too).
    static func tlsTarget(_ sandbox: Sandbox, caFile: String?, host: String = "localhost") -> DoctorTarget {
        let port = sandbox.endpoints.port
        return DoctorTarget(
            host: host, port: port, tls: true, appKey: "sandbox-key", caFile: caFile,
            authEndpoint: "https://\(host):\(port)/auth", memberAuthEndpoint: "https://\(host):\(port)/auth/member")
    }

    /// A plain target at a loopback port (a scripted server), with a short step time.
    static func loopback(port: Int, timeout: Duration = .seconds(5)) -> DoctorTarget {
        DoctorTarget(host: "127.0.0.1", port: port, tls: false, appKey: "sandbox-key", timeout: timeout)
    }

    static func run(_ target: DoctorTarget) async -> DoctorReport {
        await DoctorRunner(target: target).run()
    }
}

extension DoctorReport {
    /// Checks that `layer` failed, every layer below passed (or was skipped for its own reason)
    /// and every layer above was skipped; returns the failing step.
    func expectFailure(at layer: DoctorLayer, sourceLocation: SourceLocation = #_sourceLocation) -> DoctorStep? {
        #expect(
            firstFailure?.layer == layer,
            "first failure: \(firstFailure.map { "\($0.layer) \($0.summary)" } ?? "none")",
            sourceLocation: sourceLocation)
        #expect(exitCode == layer.exitCode, sourceLocation: sourceLocation)
        for step in steps where step.layer < layer {
            #expect(step.status != .fail, "\(step.layer): \(step.summary)", sourceLocation: sourceLocation)
        }
        return step(layer)
    }

    /// Checks that nothing failed.
    func expectPassed(sourceLocation: SourceLocation = #_sourceLocation) {
        for step in steps {
            #expect(
                step.status.isPassing, "\(step.layer): \(step.summary) — \(step.hint ?? "")",
                sourceLocation: sourceLocation)
        }
        #expect(exitCode == 0, sourceLocation: sourceLocation)
    }
}
