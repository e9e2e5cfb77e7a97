import COpenSSL
enum WebSocketModulePlaceholder { static let v = OpenSSL_version_num() }
