import Foundation
import WebSocket

/// The real transport: the WebSocket module's RFC 6455 client (TLS with verification via
/// OpenSSL, optional extra CA file). Events arrive in order on the client's private queue.
///
/// Reading is flow-controlled: once what was read but not yet consumed reaches 8 MiB (received
/// bytes plus 256 per message; a batch counts as consumed when `onEvents` returns, or, inside the
/// client, when the deliveries it caused have run) the socket is not read until the backlog
/// falls to half of that, so TCP pushes back to the server instead of memory growing.
public final class WebSocketTransport: Transport, @unchecked Sendable {
    /// The most received bytes (plus 256 per message) waiting for handlers before the socket
    /// stops being read: 8 MiB.
    static let inboundHighWater = InboundCredit.defaultHighWater

    private let client: WebSocketClient
    /// What was read and not yet consumed (internal for tests).
    let credit: InboundCredit
    /// Where each batch's credit goes back (internal for tests).
    let fence = DeliveryFence()

    /// Creates a transport for `configuration` reporting each socket read's events on `queue`,
    /// together, to `onEvents`.
    public init(
        configuration: TransportConfiguration, queue: DispatchQueue,
        onEvents: @escaping @Sendable ([TransportEvent]) -> Void
    ) {
        let wsConfiguration = WebSocketClient.Configuration(
            url: configuration.url, headers: configuration.headers,
            connectTimeout: configuration.connectTimeout,
            caFile: configuration.caFile)
        let credit = InboundCredit(highWater: Self.inboundHighWater)
        self.credit = credit
        let fence = self.fence
        client = WebSocketClient(
            configuration: wsConfiguration, queue: queue, credit: credit,
            onEvents: { events, cost in
                onEvents(events.map(Self.translate))
                fence.release(cost, to: credit)
            })
    }

    /// A ``TransportFactory`` making WebSocket transports.
    public static let factory: TransportFactory = { configuration, queue, onEvents in
        WebSocketTransport(configuration: configuration, queue: queue, onEvents: onEvents)
    }

    public func connect() {
        client.connect()
    }

    public func send(texts: [String]) throws {
        try client.send(texts: texts)
    }

    public func close(code: Int, reason: String) {
        client.close(code: UInt16(clamping: code), reason: reason)
    }

    public func abort() {
        client.abort()
    }

    /// Whether deliveries are behind what was read (see ``InboundFlowControl``).
    var isHoldingBack: Bool { credit.outstandingCost > credit.lowWater }

    func setDeliveryFence(_ fence: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.fence.set(fence)
    }

    static func translate(_ event: WebSocketEvent) -> TransportEvent {
        switch event {
        case .opened: return .opened
        case .text(let text): return .text(text)
        case .binary(let bytes): return .binary(bytes)
        case .ping, .pong: return .heartbeat
        case .closed(let info):
            var failure: TransportFailure?
            var initiatedLocally = info.initiatedLocally
            switch info.error {
            case .protocolViolation?:
                // The client failed the connection for the server's violation: the backoff path
                // with a protocol-violation cause, not a network error.
                failure = nil
                initiatedLocally = true
            case let error?:
                failure = TransportFailure(message: error.description)
            case nil:
                if info.code == 1006 { failure = TransportFailure(message: "connection lost (1006)") }
            }
            return .closed(
                TransportClose(
                    code: Int(info.code), reason: info.reason, initiatedLocally: initiatedLocally,
                    failure: failure))
        }
    }

    /// Performs an auth endpoint request with the WebSocket module's HTTP client (same TLS rules
    /// and CA file as the socket).
    public static let performHTTP: AuthHTTPPerformer = { request in
        let response = try await HTTPClient.send(
            method: request.method, url: request.url, headers: request.headers,
            body: request.body, caFile: request.caFile, timeout: request.timeout)
        return AuthHTTPResponse(status: response.status, body: response.body)
    }
}

extension WebSocketTransport: InboundFlowControl {}
