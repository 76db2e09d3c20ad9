//go:build !unix

package main

import "os"

// maxRSS is 0: the system does not say.
func maxRSS(*os.ProcessState) int64 { return 0 }
