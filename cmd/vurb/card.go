package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/vurb-go/vurb/servercard"
)

// maxCardBytes bounds the server card vurb reads: a card is a few
// hundred bytes, and a server is not trusted to keep it so.
const maxCardBytes = 64 << 10

// readCard reads the server card served beside the endpoint (SEP-2127:
// the endpoint's URL plus /server-card), through client; nil and no error
// when the server serves none (a 4xx, or a 200 that is not a card). A
// failure that says nothing of the card (the network, a 5xx) is an error:
// a manifest without the card would read as a card removed.
func readCard(ctx context.Context, client *http.Client, endpoint string) (*servercard.Card, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, servercard.URL(endpoint), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", servercard.MediaType)
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx) // the command's time is up: said as every step says it
		}
		return nil, fmt.Errorf("its server card could not be read: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 500:
		return nil, fmt.Errorf("its server card could not be read: %s answered %s", servercard.URL(endpoint), resp.Status)
	case resp.StatusCode != http.StatusOK:
		return nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCardBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxCardBytes {
		return nil, fmt.Errorf("its server card is larger than %d bytes", maxCardBytes)
	}
	var card servercard.Card
	if err := json.Unmarshal(data, &card); err != nil || card.Schema != servercard.SchemaURL {
		return nil, nil // not a card: something else lives there
	}
	return &card, nil
}
