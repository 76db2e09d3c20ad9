// Package dpop binds access tokens to a key the client holds (DPoP, RFC
// 9449), so that a stolen token is worthless without the key.
//
// On the server, vurb.WithDPoP(Policy) makes WithBearerAuth accept
// "Authorization: DPoP <token>" with a proof in the DPoP header: the
// proof is checked as RFC 9449 §4.3 says, its jti spent once in the app's
// store, and the token's cnf.jkt compared with the proof key's
// thumbprint. On the client, a Signer signs proofs with the client's key
// and a Transport sends them with each request, taking up the server's
// nonces.
package dpop
