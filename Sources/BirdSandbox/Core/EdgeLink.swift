/// The socket side of one edge connection, as the session logic sees it.
///
/// The sandbox adapts `WebSocketServerConnection` to this; tests use an in-memory fake. All calls
/// happen on the edge's serial queue.
protocol EdgeLink: AnyObject {
    /// Sends one text frame.
    func send(text: String)
    /// Sends a close frame with `code` and `reason`, then closes.
    func close(code: Int, reason: String)
    /// Closes the TCP connection without a close frame (the peer sees 1006).
    func drop()
    /// Stops reading from the connection (it goes silent).
    func pauseReading()
    /// Sends one raw frame (for bad-input tests): `binary` false sends a text frame whose bytes
    /// need not be valid UTF-8.
    func sendRaw(binary: Bool, payload: [UInt8])
}
