package tasks

import (
	"encoding/json"
	"time"

	"github.com/vurb-go/vurb/store"
)

// The tasks extension's results, as they go on the wire: a CreateTaskResult
// (resultType "task", the task flat at the top level), the DetailedTask of
// tasks/get (resultType "complete", with the result, the error or the
// input requests of its status) and the empty acknowledgements of
// tasks/update and tasks/cancel.

// wireTask is a Task with the fields of its status.
type wireTask struct {
	Meta           json.RawMessage            `json:"_meta,omitempty"`
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         store.TaskStatus           `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          int64                      `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs,omitempty"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          json.RawMessage            `json:"error,omitempty"`
}

// taskTime is the ISO 8601 form of a task's timestamps.
func taskTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// millis is d in whole milliseconds, at least 1: the extension's
// durations are positive integers.
func millis(d time.Duration) int64 { return max(d.Milliseconds(), 1) }

// createTaskResult is the answer to a tools/call that made t.
func createTaskResult(t *store.Task, meta json.RawMessage) ([]byte, error) {
	w := taskHeader(t, meta, "task")
	return json.Marshal(&w)
}

// detailedTask is the answer to tasks/get: t and what its status carries.
func detailedTask(t *store.Task, meta json.RawMessage) ([]byte, error) {
	w := taskHeader(t, meta, "complete")
	switch t.Status {
	case store.TaskInputRequired:
		w.InputRequests = t.InputRequests
		if w.InputRequests == nil {
			w.InputRequests = map[string]json.RawMessage{}
		}
	case store.TaskCompleted:
		w.Result = t.Result
	case store.TaskFailed:
		w.Error = t.Error
	}
	return json.Marshal(&w)
}

func taskHeader(t *store.Task, meta json.RawMessage, resultType string) wireTask {
	return wireTask{Meta: meta, ResultType: resultType, TaskID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: taskTime(t.CreatedAt), LastUpdatedAt: taskTime(t.UpdatedAt), TTLMs: millis(t.TTL),
		PollIntervalMs: millis(t.PollInterval)}
}

// ackResult is the empty result of tasks/update and tasks/cancel.
func ackResult(meta json.RawMessage) []byte {
	data, _ := json.Marshal(struct {
		Meta       json.RawMessage `json:"_meta,omitempty"`
		ResultType string          `json:"resultType"`
	}{meta, "complete"})
	return data
}
