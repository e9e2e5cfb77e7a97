// The member the embedded sandbox's demo endpoints are asked for: chosen with `i` or `signin ID`,
// read by the HTTP performer when the client asks the sign-in endpoint to sign it in or the
// channel endpoint to authorise a presence channel (so the roster's "you" is the same member).

import BirdInspector
import BirdRealtime
import Foundation

/// The chosen member id, shared between the main loop (which sets it) and the client's auth
/// requests (which read it).
final class ChosenMember: @unchecked Sendable {
    private let lock = NSLock()
    private var choice: (id: String, info: String?)
    private var channelsAuthorisedAs: String?

    /// Starts with `id` (`--user-id`, else `inspector`) and the endpoint's default info.
    init(_ id: String) { choice = (id, nil) }

    /// The member the last channel authorisation asked for (nil before the first).
    var presenceIdentity: String? { lock.withLock { channelsAuthorisedAs } }

    /// The id (and member info, a JSON object's text) the next sign-in asks for.
    var current: (id: String, info: String?) {
        get { lock.withLock { choice } }
        set { lock.withLock { choice = newValue } }
    }

    /// `perform`, with requests to `signinEndpoint` asking for the chosen member (`?member=ID`,
    /// and its info) and requests to `channelEndpoint` asking for the same id.
    func asking(_ perform: @escaping AuthHTTPPerformer, signinEndpoint: URL?, channelEndpoint: URL?)
        -> AuthHTTPPerformer
    {
        { [self] request in
            var request = request
            let choice = current
            if Self.same(request.url, signinEndpoint) {
                request.url = MemberIdRules.url(request.url, member: choice.id, info: choice.info)
            } else if Self.same(request.url, channelEndpoint) {
                request.url = MemberIdRules.url(request.url, member: choice.id)
                lock.withLock { channelsAuthorisedAs = choice.id }
            }
            return try await perform(request)
        }
    }

    private static func same(_ url: URL, _ endpoint: URL?) -> Bool {
        guard let endpoint else { return false }
        return url.path == endpoint.path && url.host == endpoint.host && url.port == endpoint.port
    }
}
