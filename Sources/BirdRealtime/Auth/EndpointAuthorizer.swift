import Foundation

/// Calls an auth endpoint in the form of the dialect (docs/PROTOCOL.md § Dialects) and reads its answer.
/// Every failure — refused, timeout, non-2xx, a body that is not JSON, a missing `auth` — is a
/// ``RealtimeAuthError`` carrying the endpoint and the HTTP status (0 when there was none).
struct EndpointAuthorizer: Sendable {
    let options: BirdRealtime.Options
    let http: AuthHTTPPerformer

    var dialect: Dialect { options.dialect }

    /// Signs a private or presence subscription.
    func authorizeChannel(url: URL, channelName: String, connectionId: String) async -> Result<
        AuthResponse, RealtimeAuthError
    > {
        let body: (String, [UInt8])
        switch dialect {
        case .bird:
            body = (
                "application/json",
                Array(
                    JSONValue.object(["connection_id": .string(connectionId), "channel_name": .string(channelName)])
                        .description.utf8)
            )
        case .pusher:
            body = (
                "application/x-www-form-urlencoded",
                Array("socket_id=\(Self.formEncode(connectionId))&channel_name=\(Self.formEncode(channelName))".utf8)
            )
        }
        return await post(url: url, contentType: body.0, body: body.1, memberDataKey: dialect.presenceDataKey)
    }

    /// Signs a sign-in.
    func authorizeSignin(url: URL, connectionId: String) async -> Result<AuthResponse, RealtimeAuthError> {
        let body: (String, [UInt8])
        switch dialect {
        case .bird:
            body = (
                "application/json", Array(JSONValue.object(["connection_id": .string(connectionId)]).description.utf8)
            )
        case .pusher:
            body = ("application/x-www-form-urlencoded", Array("socket_id=\(Self.formEncode(connectionId))".utf8))
        }
        let result = await post(url: url, contentType: body.0, body: body.1, memberDataKey: dialect.signinDataKey)
        if case .success(let response) = result, response.memberData == nil {
            return .failure(
                RealtimeAuthError(
                    endpoint: url.absoluteString, status: 200,
                    message: "the sign-in endpoint's answer has no \(dialect.signinDataKey)"))
        }
        return result
    }

    private func post(url: URL, contentType: String, body: [UInt8], memberDataKey: String) async -> Result<
        AuthResponse, RealtimeAuthError
    > {
        let endpoint = url.absoluteString
        do throws(ConfigurationError) {
            try ConnectionURL.checkEndpoint(url, allowInsecure: options.allowInsecure)
        } catch {
            return .failure(RealtimeAuthError(endpoint: endpoint, status: 0, message: error.message))
        }
        var headers = ["content-type": contentType, "accept": "application/json"]
        for (name, value) in options.authHeaders { headers[name] = value }
        if let provider = options.authHeadersProvider {
            do {
                for (name, value) in try await provider() { headers[name] = value }
            } catch {
                return .failure(
                    RealtimeAuthError(
                        endpoint: endpoint, status: 0,
                        message: "authHeadersProvider failed: \(error)"))
            }
        }
        let request = AuthHTTPRequest(
            method: "POST", url: url, headers: headers, body: body,
            timeout: options.subscribeTimeout, caFile: options.caFile)
        let response: AuthHTTPResponse
        do {
            response = try await http(request)
        } catch {
            return .failure(RealtimeAuthError(endpoint: endpoint, status: 0, message: "auth request failed: \(error)"))
        }
        guard (200...299).contains(response.status) else {
            return .failure(
                RealtimeAuthError(
                    endpoint: endpoint, status: response.status,
                    message: "auth endpoint answered HTTP \(response.status)"))
        }
        return Self.parse(
            body: response.body, status: response.status, endpoint: endpoint, memberDataKey: memberDataKey)
    }

    /// Reads `{"auth": "<key>:<hex>", "<memberDataKey>"?: "<json string>", "shared_secret"?: "<base64>"}`.
    static func parse(body: [UInt8], status: Int, endpoint: String, memberDataKey: String) -> Result<
        AuthResponse, RealtimeAuthError
    > {
        let value: JSONValue
        do {
            value = try body.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONValue(parsing: buffer) }
        } catch {
            return .failure(
                RealtimeAuthError(
                    endpoint: endpoint, status: status,
                    message: "auth endpoint answered with a body that is not JSON (\(error))"))
        }
        guard let object = value.objectValue else {
            return .failure(
                RealtimeAuthError(
                    endpoint: endpoint, status: status,
                    message: "auth endpoint answered with JSON that is not an object"))
        }
        guard let auth = object["auth"]?.stringValue, !auth.isEmpty else {
            return .failure(
                RealtimeAuthError(
                    endpoint: endpoint, status: status,
                    message: "auth endpoint answer has no \"auth\""))
        }
        var memberData: String?
        switch object[memberDataKey] {
        case .string(let text)?: memberData = text
        case .object(let o)?: memberData = JSONValue.object(o).description
        default: memberData = nil
        }
        // An encrypted channel's key (`shared_secret`); checked by the client for those channels
        // only, so that an answer carrying one for another channel still works.
        let sharedSecret = object[EncryptedChannel.sharedSecretKey]?.stringValue
        return .success(AuthResponse(auth: auth, memberData: memberData, sharedSecret: sharedSecret))
    }

    /// `application/x-www-form-urlencoded` encoding of one value.
    static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
        return encoded
    }
}

extension ClientCore {
    /// Signs a subscription with the custom authorizer or the endpoint (off the queue).
    func authorizeChannel(_ name: String, connectionId: String) async -> Result<AuthResponse, RealtimeAuthError> {
        if let authorizer = options.authorizer {
            do {
                return .success(try await authorizer(ChannelAuthRequest(channelName: name, connectionId: connectionId)))
            } catch let error as RealtimeAuthError {
                return .failure(error)
            } catch {
                return .failure(
                    RealtimeAuthError(endpoint: "authorizer", status: 0, message: "authorizer failed: \(error)"))
            }
        }
        guard let url = options.authEndpoint else {
            return .failure(
                RealtimeAuthError(
                    endpoint: "", status: 0,
                    message: "no authEndpoint or authorizer is set for private and presence channels"))
        }
        return await EndpointAuthorizer(options: options, http: environment.http)
            .authorizeChannel(url: url, channelName: name, connectionId: connectionId)
    }

    /// Signs a sign-in with the member authorizer or the member endpoint (off the queue).
    func authorizeSignin(connectionId: String) async -> Result<AuthResponse, RealtimeAuthError> {
        if let authorizer = options.memberAuthorizer {
            do {
                let response = try await authorizer(connectionId)
                guard response.memberData != nil else {
                    return .failure(
                        RealtimeAuthError(
                            endpoint: "memberAuthorizer", status: 0,
                            message: "the member authorizer returned no member data"))
                }
                return .success(response)
            } catch let error as RealtimeAuthError {
                return .failure(error)
            } catch {
                return .failure(
                    RealtimeAuthError(
                        endpoint: "memberAuthorizer", status: 0,
                        message: "member authorizer failed: \(error)"))
            }
        }
        guard let url = options.memberAuthEndpoint else {
            return .failure(
                RealtimeAuthError(endpoint: "", status: 0, message: "no memberAuthEndpoint or memberAuthorizer is set"))
        }
        return await EndpointAuthorizer(options: options, http: environment.http)
            .authorizeSignin(url: url, connectionId: connectionId)
    }
}
