// Empty on purpose: an assembly file lets oracle_test.go declare functions without bodies, which go:linkname then binds to Go's own codec.
