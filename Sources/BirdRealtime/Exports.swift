// `import BirdRealtime` alone gives the protocol model too: the JSON model (`JSONValue`,
// `JSONNumber`, `JSONObject`, `EventPayload`, `JSONValueDecoder`/`Encoder` and their errors),
// `ConnectionState`, `CloseCode`, `Dialect`, `ChannelKind`, `BirdProtocol` and the decryption errors a
// `DecryptionProblem` carries.
//
// Re-exporting the whole module re-exports only its `public` declarations: everything else in
// BirdWire (wire message coding, the parser's internals, limits, signatures, redaction, key
// material, checked arithmetic, loopback and SplitMix64 helpers) is `package` — visible to this
// package's targets (inspector, sandbox, doctor, tests) and to no app. `Scripts/public-api`
// (stage 25-docs) checks both sides from a module outside the package.
@_exported import BirdWire
