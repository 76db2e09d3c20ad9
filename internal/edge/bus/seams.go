package bus

import "context"

// Local is what the hub needs of the replica it runs in, met by the
// edge: what a message from another replica makes this one do.
type Local interface {
	// NotifyLocal tells the subscribers of this process's servers that
	// uri was updated.
	NotifyLocal(ctx context.Context, uri string) error
	// InterruptTask interrupts the task id, when this replica runs it.
	InterruptTask(id string)
	// RestoreTask saves again the record of the task id, when this
	// replica runs it.
	RestoreTask(id string)
	// ForgetSession drops what this replica holds of the session id,
	// which its client ended.
	ForgetSession(id string)
	// ResaveSession saves again the record of the session id, when this
	// replica holds it.
	ResaveSession(ctx context.Context, id string)
	// ReplaySession passes msg, a JSON-RPC message another replica
	// received for the session id, to this replica's go-sdk session of it.
	ReplaySession(ctx context.Context, id string, msg []byte)
	// ToolsChanged tells this replica's go-sdk session id, if it holds
	// it, that its list of tools changed.
	ToolsChanged(id string)
}
