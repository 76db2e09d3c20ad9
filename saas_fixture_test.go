package vurb_test

import (
	"context"

	"github.com/vurb-go/vurb"
)

// The SaaS fixture: a realistic app of 7 tools and 49 actions (projects,
// tasks, users, billing, audit, webhooks, API keys) whose actions share
// field names but not their facts: "status" filters in one action and is
// the required new state in another, "role" offers "owner" to a filter but
// not to an invitation, "limit" has different bounds and defaults, "reason"
// is an enum in a refund and free text in a cancellation. Every call is
// scoped to a workspace, as in most multi-tenant APIs. It is the app the
// token budget and the grouped-truth tests measure.

type SaaSWorkspace struct {
	WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
}

type SaaSProjectRef struct {
	SaaSWorkspace
	ID string `json:"id" validate:"required" description:"Project ID"`
}

type SaaSProjectList struct {
	SaaSWorkspace
	Status string `json:"status,omitempty" default:"active" validate:"omitempty,oneof=active archived all" description:"Filter by status"`
	Query  string `json:"query,omitempty" validate:"omitempty,max=200" description:"Text to search in names"`
	Limit  *int   `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100" description:"Page size"`
	Cursor string `json:"cursor,omitempty" description:"Cursor from the previous page"`
}

type SaaSProjectCreate struct {
	SaaSWorkspace
	Name        string `json:"name" validate:"required,min=3,max=80" description:"Project name"`
	Description string `json:"description,omitempty" validate:"omitempty,max=2000" description:"What the project is for"`
	Visibility  string `json:"visibility,omitempty" default:"private" validate:"omitempty,oneof=private team public" description:"Who can see the project"`
}

type SaaSProjectUpdate struct {
	SaaSWorkspace
	ID          string `json:"id" validate:"required" description:"Project ID"`
	Name        string `json:"name,omitempty" validate:"omitempty,min=3,max=80" description:"New name"`
	Description string `json:"description,omitempty" validate:"omitempty,max=2000" description:"What the project is for"`
	Visibility  string `json:"visibility,omitempty" validate:"omitempty,oneof=private team public" description:"New visibility"`
}

type SaaSProjectArchive struct {
	SaaSWorkspace
	ID     string `json:"id" validate:"required" description:"Project ID"`
	Reason string `json:"reason,omitempty" validate:"omitempty,max=500" description:"Why the project is archived"`
}

type SaaSProjectDelete struct {
	SaaSWorkspace
	ID      string `json:"id" validate:"required" description:"Project ID"`
	Confirm *bool  `json:"confirm" validate:"required" description:"Must be true: deletion cannot be undone"`
}

type SaaSProjectTransfer struct {
	SaaSWorkspace
	ID     string `json:"id" validate:"required" description:"Project ID"`
	Target string `json:"target_workspace_id" validate:"required" description:"Workspace to move the project to"`
}

type SaaSProject struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Visibility string `json:"visibility"`
}

type SaaSTaskRef struct {
	SaaSWorkspace
	TaskID string `json:"task_id" validate:"required" description:"Task ID"`
}

type SaaSTaskList struct {
	SaaSWorkspace
	ProjectID  string `json:"project_id" validate:"required" description:"Project ID"`
	Status     string `json:"status,omitempty" default:"all" validate:"omitempty,oneof=open in_progress done all" description:"Filter by status"`
	AssigneeID string `json:"assignee_id,omitempty" description:"Only tasks assigned to this user"`
	Limit      *int   `json:"limit,omitempty" default:"50" validate:"omitempty,min=1,max=200" description:"Page size"`
	Cursor     string `json:"cursor,omitempty" description:"Cursor from the previous page"`
}

type SaaSTaskCreate struct {
	SaaSWorkspace
	ProjectID  string `json:"project_id" validate:"required" description:"Project ID"`
	Title      string `json:"title" validate:"required,min=1,max=200" description:"Task title"`
	Priority   string `json:"priority,omitempty" default:"medium" validate:"omitempty,oneof=low medium high urgent" description:"Task priority"`
	DueDate    string `json:"due_date,omitempty" validate:"omitempty,datetime=2006-01-02" description:"Due date"`
	AssigneeID string `json:"assignee_id,omitempty" description:"User to assign"`
}

type SaaSTaskUpdate struct {
	SaaSWorkspace
	TaskID   string `json:"task_id" validate:"required" description:"Task ID"`
	Title    string `json:"title,omitempty" validate:"omitempty,min=1,max=200" description:"New title"`
	Priority string `json:"priority,omitempty" validate:"omitempty,oneof=low medium high urgent" description:"New priority"`
	DueDate  string `json:"due_date,omitempty" validate:"omitempty,datetime=2006-01-02" description:"Due date"`
}

type SaaSTaskAssign struct {
	SaaSWorkspace
	TaskID     string `json:"task_id" validate:"required" description:"Task ID"`
	AssigneeID string `json:"assignee_id" validate:"required" description:"User to assign"`
}

type SaaSTaskTransition struct {
	SaaSWorkspace
	TaskID  string `json:"task_id" validate:"required" description:"Task ID"`
	Status  string `json:"status" validate:"required,oneof=open in_progress done" description:"New status"`
	Comment string `json:"comment,omitempty" validate:"omitempty,max=1000" description:"Why the status changes"`
}

type SaaSTaskComment struct {
	SaaSWorkspace
	TaskID string `json:"task_id" validate:"required" description:"Task ID"`
	Body   string `json:"body" validate:"required,min=1,max=5000" description:"Comment text"`
}

type SaaSTask struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	Priority string `json:"priority"`
}

type SaaSUserRef struct {
	SaaSWorkspace
	UserID string `json:"user_id" validate:"required" description:"User ID"`
}

type SaaSUserList struct {
	SaaSWorkspace
	Role   string `json:"role,omitempty" validate:"omitempty,oneof=owner admin member guest" description:"Filter by role"`
	Limit  *int   `json:"limit,omitempty" default:"25" validate:"omitempty,min=1,max=100" description:"Page size"`
	Cursor string `json:"cursor,omitempty" description:"Cursor from the previous page"`
}

type SaaSUserInvite struct {
	SaaSWorkspace
	Email   string `json:"email" validate:"required,email" description:"Email address"`
	Role    string `json:"role,omitempty" default:"member" validate:"omitempty,oneof=admin member guest" description:"Role to grant"`
	Message string `json:"message,omitempty" validate:"omitempty,max=500" description:"Note in the invitation"`
}

type SaaSUserRole struct {
	SaaSWorkspace
	UserID string `json:"user_id" validate:"required" description:"User ID"`
	Role   string `json:"role" validate:"required,oneof=admin member guest" description:"New role"`
}

type SaaSUserDeactivate struct {
	SaaSWorkspace
	UserID string `json:"user_id" validate:"required" description:"User ID"`
	Reason string `json:"reason,omitempty" validate:"omitempty,max=500" description:"Why the user is deactivated"`
}

type SaaSUserSearch struct {
	SaaSWorkspace
	Query string `json:"query" validate:"required,min=2,max=100" description:"Name or email fragment"`
	Limit *int   `json:"limit,omitempty" default:"10" validate:"omitempty,min=1,max=20" description:"Page size"`
}

type SaaSUser struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

type SaaSPlanChange struct {
	SaaSWorkspace
	Plan  string `json:"plan" validate:"required,oneof=free team business enterprise" description:"Plan to switch to"`
	Seats *int   `json:"seats,omitempty" validate:"omitempty,min=1,max=10000" description:"Number of seats"`
}

type SaaSInvoiceList struct {
	SaaSWorkspace
	Status string `json:"status,omitempty" default:"all" validate:"omitempty,oneof=paid open void all" description:"Filter by invoice status"`
	Since  string `json:"since,omitempty" validate:"omitempty,datetime=2006-01-02" description:"First day"`
	Limit  *int   `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type SaaSInvoiceRef struct {
	SaaSWorkspace
	InvoiceID string `json:"invoice_id" validate:"required" description:"Invoice ID"`
}

type SaaSRefund struct {
	SaaSWorkspace
	InvoiceID string `json:"invoice_id" validate:"required" description:"Invoice to refund"`
	Amount    *int   `json:"amount,omitempty" validate:"omitempty,min=1" description:"Amount in cents; the whole invoice when absent"`
	Reason    string `json:"reason,omitempty" validate:"omitempty,oneof=duplicate fraudulent requested_by_customer" description:"Refund reason"`
}

type SaaSCancel struct {
	SaaSWorkspace
	Reason      string `json:"reason,omitempty" validate:"omitempty,max=500" description:"Why the customer cancels"`
	AtPeriodEnd *bool  `json:"at_period_end,omitempty" default:"true" description:"Cancel when the paid period ends"`
}

type SaaSPaymentMethod struct {
	SaaSWorkspace
	Token string `json:"token" validate:"required" description:"Payment token from the checkout form"`
}

type SaaSPlan struct {
	Plan  string `json:"plan"`
	Seats int    `json:"seats"`
}

type SaaSEventList struct {
	SaaSWorkspace
	Since   string `json:"since,omitempty" validate:"omitempty,datetime=2006-01-02" description:"First day"`
	Until   string `json:"until,omitempty" validate:"omitempty,datetime=2006-01-02" description:"Last day"`
	ActorID string `json:"actor_id,omitempty" description:"Only events by this user"`
	Limit   *int   `json:"limit,omitempty" default:"100" validate:"omitempty,min=1,max=500" description:"Page size"`
}

type SaaSEventRef struct {
	SaaSWorkspace
	EventID string `json:"event_id" validate:"required" description:"Event ID"`
}

type SaaSExport struct {
	SaaSWorkspace
	Since  string `json:"since" validate:"required,datetime=2006-01-02" description:"First day"`
	Until  string `json:"until,omitempty" validate:"omitempty,datetime=2006-01-02" description:"Last day"`
	Format string `json:"format,omitempty" default:"csv" validate:"omitempty,oneof=csv jsonl" description:"Export file format"`
}

type SaaSEventSearch struct {
	SaaSWorkspace
	Query string `json:"query" validate:"required,min=2" description:"Text to search in events"`
	Since string `json:"since,omitempty" validate:"omitempty,datetime=2006-01-02" description:"First day"`
	Limit *int   `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type SaaSRetention struct {
	SaaSWorkspace
	Days *int `json:"days" validate:"required,min=30,max=3650" description:"Days to keep events"`
}

type SaaSWebhookList struct {
	SaaSWorkspace
	Limit *int `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type SaaSWebhookRef struct {
	SaaSWorkspace
	WebhookID string `json:"webhook_id" validate:"required" description:"Webhook ID"`
}

type SaaSWebhookCreate struct {
	SaaSWorkspace
	URL         string `json:"url" validate:"required,url" description:"Endpoint URL, https only"`
	Events      string `json:"events" validate:"required,max=500" description:"Comma-separated event types"`
	Description string `json:"description,omitempty" validate:"omitempty,max=200" description:"What the webhook is for"`
	Active      *bool  `json:"active,omitempty" default:"true" description:"Deliver events"`
}

type SaaSWebhookUpdate struct {
	SaaSWorkspace
	WebhookID string `json:"webhook_id" validate:"required" description:"Webhook ID"`
	URL       string `json:"url,omitempty" validate:"omitempty,url" description:"New endpoint URL"`
	Events    string `json:"events,omitempty" validate:"omitempty,max=500" description:"Comma-separated event types"`
	Active    *bool  `json:"active,omitempty" description:"Enable or disable deliveries"`
}

type SaaSWebhookTest struct {
	SaaSWorkspace
	WebhookID string `json:"webhook_id" validate:"required" description:"Webhook ID"`
	EventType string `json:"event_type" validate:"required,oneof=task.created task.updated project.archived" description:"Event to send a sample of"`
}

type SaaSDeliveryList struct {
	SaaSWorkspace
	WebhookID string `json:"webhook_id" validate:"required" description:"Webhook ID"`
	Status    string `json:"status,omitempty" default:"all" validate:"omitempty,oneof=succeeded failed all" description:"Filter by delivery status"`
	Limit     *int   `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type SaaSRedeliver struct {
	SaaSWorkspace
	WebhookID  string `json:"webhook_id" validate:"required" description:"Webhook ID"`
	DeliveryID string `json:"delivery_id" validate:"required" description:"Delivery to send again"`
}

type SaaSWebhook struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Active bool   `json:"active"`
}

type SaaSKeyList struct {
	SaaSWorkspace
	IncludeRevoked *bool `json:"include_revoked,omitempty" default:"false" description:"List revoked keys too"`
	Limit          *int  `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100" description:"Page size"`
}

type SaaSKeyRef struct {
	SaaSWorkspace
	KeyID string `json:"key_id" validate:"required" description:"API key ID"`
}

type SaaSKeyCreate struct {
	SaaSWorkspace
	Name    string `json:"name" validate:"required,min=1,max=60" description:"Key name"`
	Access  string `json:"access,omitempty" default:"read" validate:"omitempty,oneof=read write admin" description:"Access level"`
	Expires *int   `json:"expires_in_days,omitempty" default:"90" validate:"omitempty,min=1,max=365" description:"Days until the key expires"`
}

type SaaSKeyRevoke struct {
	SaaSWorkspace
	KeyID  string `json:"key_id" validate:"required" description:"API key ID"`
	Reason string `json:"reason,omitempty" validate:"omitempty,max=200" description:"Why the key is revoked"`
}

type SaaSKeyRotate struct {
	SaaSWorkspace
	KeyID   string `json:"key_id" validate:"required" description:"API key ID"`
	Expires *int   `json:"expires_in_days,omitempty" validate:"omitempty,min=1,max=365" description:"Lifetime of the new key in days"`
}

type SaaSKey struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Access string `json:"access"`
}

func saasOK[In, Out any](out Out) func(context.Context, In) (Out, error) {
	return func(context.Context, In) (Out, error) { return out, nil }
}

func saasText[In any](text string) func(context.Context, In) (string, error) {
	return saasOK[In](text)
}

// newSaaS builds the SaaS fixture with opts.
func newSaaS(opts ...vurb.Option) *vurb.App {
	f := vurb.New(append([]vurb.Option{vurb.WithName("saas"), vurb.WithVersion("1.0.0")}, opts...)...)

	p := f.Tool("projects").Describe("Projects of a workspace.").Common(SaaSWorkspace{})
	vurb.Query(p, "list", saasOK[SaaSProjectList]([]SaaSProject{})).Describe("List projects")
	vurb.Query(p, "get", saasOK[SaaSProjectRef](SaaSProject{})).Describe("Get a project")
	vurb.Action(p, "create", saasOK[SaaSProjectCreate](SaaSProject{})).Describe("Create a project")
	vurb.Action(p, "update", saasOK[SaaSProjectUpdate](SaaSProject{})).Describe("Change a project's name, description or visibility").Idempotent()
	vurb.Action(p, "archive", saasText[SaaSProjectArchive]("archived")).Describe("Archive a project; it can be restored").Idempotent()
	vurb.Mutation(p, "delete", saasText[SaaSProjectDelete]("deleted")).Describe("Delete a project and its tasks")
	vurb.Mutation(p, "transfer", saasText[SaaSProjectTransfer]("moved")).Describe("Move a project to another workspace")

	t := f.Tool("tasks").Describe("Tasks inside projects.").Common(SaaSWorkspace{})
	vurb.Query(t, "list", saasOK[SaaSTaskList]([]SaaSTask{})).Describe("List tasks of a project")
	vurb.Query(t, "get", saasOK[SaaSTaskRef](SaaSTask{})).Describe("Get a task")
	vurb.Action(t, "create", saasOK[SaaSTaskCreate](SaaSTask{})).Describe("Create a task")
	vurb.Action(t, "update", saasOK[SaaSTaskUpdate](SaaSTask{})).Describe("Change a task's title, priority or due date").Idempotent()
	vurb.Action(t, "assign", saasOK[SaaSTaskAssign](SaaSTask{})).Describe("Assign a task to a user").Idempotent()
	vurb.Action(t, "transition", saasOK[SaaSTaskTransition](SaaSTask{})).Describe("Move a task to another status")
	vurb.Action(t, "comment", saasText[SaaSTaskComment]("commented")).Describe("Comment on a task")
	vurb.Mutation(t, "delete", saasText[SaaSTaskRef]("deleted")).Describe("Delete a task")

	u := f.Tool("users").Describe("Members of the organisation.").Common(SaaSWorkspace{})
	vurb.Query(u, "list", saasOK[SaaSUserList]([]SaaSUser{})).Describe("List users")
	vurb.Query(u, "get", saasOK[SaaSUserRef](SaaSUser{})).Describe("Get a user")
	vurb.Action(u, "invite", saasOK[SaaSUserInvite](SaaSUser{})).Describe("Invite a user by email")
	vurb.Action(u, "update_role", saasOK[SaaSUserRole](SaaSUser{})).Describe("Change a user's role").Idempotent()
	vurb.Mutation(u, "deactivate", saasText[SaaSUserDeactivate]("deactivated")).Describe("Deactivate a user and end their sessions")
	vurb.Action(u, "reactivate", saasText[SaaSUserRef]("reactivated")).Describe("Reactivate a user").Idempotent()
	vurb.Query(u, "search", saasOK[SaaSUserSearch]([]SaaSUser{})).Describe("Find users by name or email")

	b := f.Tool("billing").Describe("Plan, invoices and payments.").Common(SaaSWorkspace{})
	vurb.Query(b, "get_plan", saasOK[SaaSWorkspace](SaaSPlan{})).Describe("Current plan and seats")
	vurb.Action(b, "change_plan", saasOK[SaaSPlanChange](SaaSPlan{})).Describe("Switch plan or seat count").Idempotent()
	vurb.Query(b, "list_invoices", saasText[SaaSInvoiceList]("[]")).Describe("List invoices")
	vurb.Query(b, "get_invoice", saasText[SaaSInvoiceRef]("{}")).Describe("Get an invoice")
	vurb.Mutation(b, "refund", saasText[SaaSRefund]("refunded")).Describe("Refund an invoice")
	vurb.Mutation(b, "cancel_subscription", saasText[SaaSCancel]("cancelled")).Describe("Cancel the subscription")
	vurb.Action(b, "update_payment_method", saasText[SaaSPaymentMethod]("updated")).Describe("Replace the payment method").Idempotent()

	a := f.Tool("audit").Describe("The audit trail.").Common(SaaSWorkspace{})
	vurb.Query(a, "list_events", saasText[SaaSEventList]("[]")).Describe("List audit events, newest first")
	vurb.Query(a, "get_event", saasText[SaaSEventRef]("{}")).Describe("Get an audit event")
	vurb.Query(a, "export", saasText[SaaSExport]("https://files.example.com/export.csv")).Describe("Export events to a file").OpenWorld(true)
	vurb.Query(a, "search", saasText[SaaSEventSearch]("[]")).Describe("Search events by text")
	vurb.Query(a, "get_retention", saasText[SaaSWorkspace]("365")).Describe("How long events are kept")
	vurb.Mutation(a, "set_retention", saasText[SaaSRetention]("ok")).Describe("Change how long events are kept; older events are deleted")

	w := f.Tool("webhooks").Describe("Outgoing webhooks.").Common(SaaSWorkspace{})
	vurb.Query(w, "list", saasOK[SaaSWebhookList]([]SaaSWebhook{})).Describe("List webhooks")
	vurb.Query(w, "get", saasOK[SaaSWebhookRef](SaaSWebhook{})).Describe("Get a webhook")
	vurb.Action(w, "create", saasOK[SaaSWebhookCreate](SaaSWebhook{})).Describe("Create a webhook")
	vurb.Action(w, "update", saasOK[SaaSWebhookUpdate](SaaSWebhook{})).Describe("Change a webhook").Idempotent()
	vurb.Mutation(w, "delete", saasText[SaaSWebhookRef]("deleted")).Describe("Delete a webhook")
	vurb.Action(w, "test", saasText[SaaSWebhookTest]("sent")).Describe("Send a sample event").OpenWorld(true)
	vurb.Action(w, "rotate_secret", saasText[SaaSWebhookRef]("rotated")).Describe("Replace the signing secret")
	vurb.Query(w, "list_deliveries", saasText[SaaSDeliveryList]("[]")).Describe("List recent deliveries")
	vurb.Action(w, "redeliver", saasText[SaaSRedeliver]("sent")).Describe("Send a delivery again").OpenWorld(true)

	k := f.Tool("api_keys").Describe("API keys for programs.").Common(SaaSWorkspace{})
	vurb.Query(k, "list", saasOK[SaaSKeyList]([]SaaSKey{})).Describe("List API keys")
	vurb.Query(k, "get", saasOK[SaaSKeyRef](SaaSKey{})).Describe("Get an API key")
	vurb.Action(k, "create", saasOK[SaaSKeyCreate](SaaSKey{})).Describe("Create an API key; its secret is shown once")
	vurb.Mutation(k, "revoke", saasText[SaaSKeyRevoke]("revoked")).Describe("Revoke an API key")
	vurb.Action(k, "rotate", saasOK[SaaSKeyRotate](SaaSKey{})).Describe("Replace a key's secret")
	return f
}
