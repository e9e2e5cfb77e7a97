// The member the embedded sandbox's demo sign-in endpoint is asked for: chosen with `i` or
// `signin ID`, read by the HTTP performer when the client asks the endpoint to sign it in.

import BirdInspector
import BirdRealtime
import Foundation

/// The chosen member id, shared between the main loop (which sets it) and the client's auth
/// requests (which read it).
final class ChosenMember: @unchecked Sendable {
    private let lock = NSLock()
    private var choice: (id: String, info: String?)

    /// Starts with `id` (`--user-id`, else `inspector`) and the endpoint's default info.
    init(_ id: String) { choice = (id, nil) }

    /// The id (and member info, a JSON object's text) the next sign-in asks for.
    var current: (id: String, info: String?) {
        get { lock.withLock { choice } }
        set { lock.withLock { choice = newValue } }
    }

    /// `perform`, with requests to `signinEndpoint` asking for the chosen member (`?member=ID`).
    func asking(_ perform: @escaping AuthHTTPPerformer, signinEndpoint: URL?) -> AuthHTTPPerformer {
        { [self] request in
            guard let signinEndpoint, request.url.path == signinEndpoint.path,
                request.url.host == signinEndpoint.host, request.url.port == signinEndpoint.port
            else { return try await perform(request) }
            var request = request
            let choice = current
            request.url = MemberIdRules.url(request.url, member: choice.id, info: choice.info)
            return try await perform(request)
        }
    }
}
