package vurb_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vurb-go/vurb/dpop"
)

// oidcProviderVersion is the oidc-provider release the test runs.
const oidcProviderVersion = "9.13.3"

// openIDProvider is a real OpenID Connect provider on loopback: panva's
// oidc-provider running testdata/oidc/provider.mjs.
type openIDProvider struct {
	t      *testing.T
	issuer string
}

// npmCache returns npm and the cache where the tests' npm components are
// installed (VURB_TSCLIENT_CACHE, default the user cache dir's
// vurb-tsclient, which the TypeScript client test shares). Without npm
// the test is skipped, unless CI is set: CI must run it.
func npmCache(t *testing.T) (npm, cache string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("npm is not on PATH, and CI must run this test")
		}
		t.Skip("npm is not on PATH")
	}
	cache = os.Getenv("VURB_TSCLIENT_CACHE")
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(base, "vurb-tsclient")
	}
	return npm, cache
}

// startOpenIDProvider installs oidc-provider (and Node 22 if the system's
// is older: oidc-provider supports only current LTS releases) and starts
// the provider; it stops with the test.
func startOpenIDProvider(t *testing.T) *openIDProvider {
	t.Helper()
	npm, cache := npmCache(t)
	src, _ := filepath.Abs(filepath.Join("testdata", "oidc"))
	dir := filepath.Join(cache, "oidc-provider-"+oidcProviderVersion)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "oidc-provider", "package.json")); err != nil {
		must(t, os.MkdirAll(dir, 0o755))
		copyFile(t, filepath.Join(src, "package.json"), filepath.Join(dir, "package.json"))
		install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error")
		install.Dir = dir
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install oidc-provider: %v\n%s", err, out)
		}
	}
	copyFile(t, filepath.Join(src, "provider.mjs"), filepath.Join(dir, "provider.mjs"))
	node := nodeAtLeast(t, npm, cache, 22)

	cmd := exec.Command(node, "provider.mjs")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe() // the provider exits when it closes
	must(t, err)
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	must(t, cmd.Start())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		first <- line
		_, _ = io.Copy(io.Discard, stdout)
	}()
	var ready struct {
		Issuer string `json:"issuer"`
	}
	select {
	case line := <-first:
		if err := json.Unmarshal([]byte(line), &ready); err != nil || ready.Issuer == "" {
			<-exited
			t.Fatalf("the OpenID provider did not start: %q\n%s", line, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the OpenID provider did not answer within 60 s\n%s", stderr.String())
	}
	return &openIDProvider{t: t, issuer: ready.Issuer}
}

// token is an access token the provider issues to client (secret
// client-secret) by the client credentials grant, for resource, with
// scope ("" for the client's default).
func (p *openIDProvider) token(client, resource, scope string) string {
	p.t.Helper()
	token, _ := p.boundToken(client, resource, scope, nil)
	return token
}

// boundToken is token's, asked with a DPoP proof by signer (none when
// nil), and the token type the provider answered.
func (p *openIDProvider) boundToken(client, resource, scope string, signer *dpop.Signer) (token, tokenType string) {
	p.t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {resource}}
	if scope != "" {
		form.Set("scope", scope)
	}
	req, err := http.NewRequest(http.MethodPost, p.issuer+"/token", strings.NewReader(form.Encode()))
	must(p.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(client, client+"-secret")
	if signer != nil {
		proof, err := signer.Proof(http.MethodPost, p.issuer+"/token", "", "")
		must(p.t, err)
		req.Header.Set("DPoP", proof)
	}
	res, err := http.DefaultClient.Do(req)
	must(p.t, err)
	defer res.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || json.Unmarshal(raw, &body) != nil || body.AccessToken == "" {
		p.t.Fatalf("the provider issued no token to %s for %s: %s %s", client, resource, res.Status, raw)
	}
	return body.AccessToken, body.TokenType
}

// rotate makes the provider sign with a new key (the old one stays
// published) and returns the new key's id.
func (p *openIDProvider) rotate() string {
	p.t.Helper()
	res, err := http.Post(p.issuer+"/rotate", "application/json", nil)
	must(p.t, err)
	defer res.Body.Close()
	var body struct {
		Kid string `json:"kid"`
	}
	must(p.t, json.NewDecoder(res.Body).Decode(&body))
	return body.Kid
}

// jwtPart decodes the header (0) or the claims (1) of a JWT, unverified:
// the test reads what the provider wrote to predict what the server does.
func jwtPart(t *testing.T, token string, part int) map[string]any {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[part])
	must(t, err)
	var m map[string]any
	must(t, json.Unmarshal(raw, &m))
	return m
}

var base64RawURL = base64.RawURLEncoding
