package vurbotel

// version is the instrumentation scope's version, reported with every span
// and metric.
const version = "0.1.0"
