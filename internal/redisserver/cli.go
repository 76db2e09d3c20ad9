package redisserver

import (
	"fmt"
	"net"
	"os/exec"
	"strings"
	"time"
)

// cli runs one command through redis-cli at addr and returns its answer
// as redis-cli prints it, so that this package speaks Redis beyond PING
// without a Redis client of its own.
func cli(addr string, args ...string) (string, error) {
	host, port, _ := net.SplitHostPort(addr)
	out, err := exec.Command("redis-cli", append([]string{"-h", host, "-p", port}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("redis-cli %s at %s: %w: %s", strings.Join(args, " "), addr, err, out)
	}
	return string(out), nil
}

// until asks cli(addr, args...) until ok accepts its answer, within the
// bound, and returns the last answer.
func until(within time.Duration, ok func(answer string) bool, addr string, args ...string) (string, error) {
	deadline := time.Now().Add(within)
	for {
		answer, err := cli(addr, args...)
		if err == nil && ok(answer) {
			return answer, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("redis-cli %s at %s answered %q after %v", strings.Join(args, " "), addr, strings.TrimSpace(answer), within)
			}
			return answer, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
