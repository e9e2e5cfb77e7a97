import BirdWire
import WebSocket

/// The sandbox's HTTP routes: what each accepts from a request head (before the body is read),
/// and where each request goes.
extension Sandbox {
    /// The largest request body, per route (docs/SANDBOX.md, "Limits").
    enum BodyLimit {
        /// `POST /sandbox/connections/{id}/send`: a raw frame, base64 in JSON.
        static let send = 16 << 20
        /// `POST /sandbox/publish` and `/sandbox/burst`: one event's data.
        static let publish = 1 << 20
        /// Every other control call.
        static let control = 64 << 10
        /// `POST /auth` and `/auth/member`.
        static let auth = 64 << 10
        /// `/apps/…` and `/users/…` (the HTTP API).
        static let api = maxAPIBodyBytes
        /// Every other path (WebSocket upgrades, `GET /`, unknown paths): no body.
        static let other = 0
        /// The largest of them: the transport's ceiling.
        static let largest = send
    }

    /// The body limit of the route `path` (percent-decoded).
    static func maxBodyBytes(path: String) -> Int {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch parts.first {
        case "sandbox"?:
            if parts.count == 4, parts[1] == "connections", parts[3] == "send" { return BodyLimit.send }
            if parts.count == 2, parts[1] == "publish" || parts[1] == "burst" { return BodyLimit.publish }
            return BodyLimit.control
        case "auth"?: return BodyLimit.auth
        case "apps"?, "users"?: return BodyLimit.api
        default: return BodyLimit.other
        }
    }

    static func isControlPath(_ path: String) -> Bool { path == "/sandbox" || path.hasPrefix("/sandbox/") }
    static func isAuthPath(_ path: String) -> Bool { path == "/auth" || path == "/auth/member" }

    /// The decision on a request from its head alone (event-loop thread; pure): callers off
    /// loopback and control requests from web pages are answered before their body is read, and
    /// every route's body limit applies before a byte of it is buffered.
    static func screen(head request: HTTPRequest, listenHost: String = "") -> RequestHeadDecision {
        let path = request.path
        if isControlPath(path) {
            if let refusal = controlRefusal(request, hasBody: declaresBody(request), listenHost: listenHost) {
                return .respond(refusal)
            }
        } else if isAuthPath(path), !isLoopback(request.remoteAddress) {
            return .respond(jsonError(403, "the demo auth endpoints answer loopback callers only"))
        }
        return .readBody(maxBodyBytes: maxBodyBytes(path: path))
    }

    /// Why a control request is refused (loopback caller, then ``ControlAPIGate``), or nil.
    static func controlRefusal(_ request: HTTPRequest, hasBody: Bool, listenHost: String) -> HTTPResponse? {
        guard isLoopback(request.remoteAddress) else {
            return jsonError(403, "the control API answers loopback callers only")
        }
        if let refusal = ControlAPIGate.refusal(
            method: request.method, headers: request.headers, hasBody: hasBody, listenHost: listenHost)
        {
            return jsonError(refusal.status, refusal.message)
        }
        return nil
    }

    /// Whether a head announces a body (the transport has checked its Content-Length already).
    private static func declaresBody(_ request: HTTPRequest) -> Bool {
        guard let value = request.headers["Content-Length"] else { return false }
        return value.utf8.contains { $0 >= 0x31 && $0 <= 0x39 }  // any nonzero digit
    }

    static func jsonError(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, "{\"error\":\(JSONValue.string(message).description)}")
    }

    // MARK: Routing (on the queue)

    func route(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let path = request.path
        if Sandbox.isControlPath(path) {
            if let refusal = Sandbox.controlRefusal(
                request, hasBody: !request.body.isEmpty, listenHost: configuration.host)
            {
                return respond(refusal)
            }
            let control = ControlAPI(
                edge: edge,
                restart: { [weak self] code, reason, down in
                    self?.performRestart(code: code, reason: reason, downSeconds: down)
                },
                burst: { [weak self] channel, event, data, count, rate in
                    self?.startBurst(channel: channel, event: event, data: data, count: count, rate: rate)
                })
            let outcome = control.handle(request)
            respond(outcome.response)
            if let after = outcome.afterResponse { queue.async(execute: after) }
            return
        }
        if request.method == "OPTIONS" {
            // Only the demo auth endpoints grant CORS (browser demos); nothing else does.
            return respond(Sandbox.isAuthPath(path) ? Sandbox.authPreflight : Sandbox.plainPreflight)
        }
        if Sandbox.isAuthPath(path) {
            guard Sandbox.isLoopback(request.remoteAddress) else {
                return respond(Sandbox.jsonError(403, "the demo auth endpoints answer loopback callers only"))
            }
            guard request.method == "POST" else { return respond(.json(405, "{\"error\":\"use POST\"}")) }
            return respond(path == "/auth" ? edge.handleChannelAuth(request) : edge.handleMemberAuth(request))
        }
        if path.hasPrefix("/apps/") || path.hasPrefix("/users/") {
            let response = edge.handleAPI(request)
            if response.status != 200 { edge.log("api: \(request.method) \(path) → \(response.status)") }
            return respond(response)
        }
        if path == "/" && request.method == "GET" {
            return respond(.json(200, endpoints.jsonLine))
        }
        respond(.json(404, "{\"error\":\"not found\"}"))
    }

    /// The demo auth endpoints' preflight: browser demos may POST to them from any page.
    static let authPreflight = HTTPResponse(
        status: 204,
        headers: [
            "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST, OPTIONS",
            "Access-Control-Allow-Headers": "Content-Type, Authorization",
        ])

    /// Every other preflight: the methods, and no CORS grant.
    static let plainPreflight = HTTPResponse(status: 204, headers: ["Allow": "GET, POST, DELETE, OPTIONS"])

    /// Whether a peer address (`host:port`, `[v6]:port`) is a loopback address (BirdWire's ``Loopback``).
    static func isLoopback(_ remote: String) -> Bool {
        Loopback.isLoopback(authority: remote)
    }
}
