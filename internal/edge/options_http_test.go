package edge

import "testing"

func TestTrustedProxiesRefusesWhatIsNoAddress(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	TrustedProxies("10.0.0.0/8", "proxy.internal")
}
