package github

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v83/github"
)

// DefaultAPIURL is the REST API of github.com.
const DefaultAPIURL = "https://api.github.com/"

// ClientOptions configures NewClient. Zero fields take defaults.
type ClientOptions struct {
	// BaseURL is the REST API root (GITHUB_API_URL in Actions; a GitHub
	// Enterprise server's https://host/api/v3/, an httptest server in tests).
	BaseURL string
	// HTTPClient sends the requests; nil means one with a 60 s timeout.
	HTTPClient *http.Client
	// UserAgent names the caller; empty means "embedeval-go".
	UserAgent string
}

// NewClient returns a go-github client authenticated with token. Its own
// rate-limit bookkeeping is switched off: RetryPolicy waits for limits
// instead of failing early, with the clock it is given.
func NewClient(token string, opts ClientOptions) (*gh.Client, error) {
	if token == "" {
		return nil, fmt.Errorf("github client: no token")
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	c := gh.NewClient(hc).WithAuthToken(token)
	if opts.BaseURL != "" {
		base := opts.BaseURL
		if !strings.HasSuffix(base, "/") {
			base += "/"
		}
		u, err := url.Parse(base)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("github client: base URL %q is not an absolute URL", opts.BaseURL)
		}
		c.BaseURL = u
		c.UploadURL = u
	}
	c.UserAgent = "embedeval-go"
	if opts.UserAgent != "" {
		c.UserAgent = opts.UserAgent
	}
	c.DisableRateLimitCheck = true
	return c, nil
}
