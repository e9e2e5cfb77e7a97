/// What a ``WebSocketServer`` does with an HTTP request whose head has arrived, decided before any
/// byte of its body is read (see ``WebSocketServer/onRequestHead``).
public enum RequestHeadDecision: Sendable {
    /// Read the body, which may be at most `maxBodyBytes` long (also capped by the server's
    /// `maxRequestBodySize`); a longer `Content-Length` is answered 413 at once and the connection
    /// closed, without reading the body.
    case readBody(maxBodyBytes: Int)
    /// Answer with this response without reading the body, then close the connection.
    case respond(HTTPResponse)
}
