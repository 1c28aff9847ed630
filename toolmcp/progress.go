package toolmcp

import (
	"context"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime/progress"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultProgressInterval is the least time between two notifications/progress of one
// call, by default (see WithProgressInterval).
const DefaultProgressInterval = 100 * time.Millisecond

// WithProgressInterval sets the least time between two notifications/progress that a
// call sends, DefaultProgressInterval when d is 0; a negative d sends every report.
//
// A tool reports progress with progress.Report. When a tools/call carries a
// progress token (_meta.progressToken), its reports go to the client as
// notifications/progress with that token: the first at once, then at most one per
// interval, the newest report of an interval standing for those before it; the newest
// one not yet sent goes out when the tool returns, before the result. A report whose
// progress is not more than the last one sent or held back is dropped, since MCP asks
// progress to increase. Sending never blocks the tool: a goroutine of the call writes
// the notifications. Without a token, nothing is sent (the Toolset's WithProgress
// observer still hears every report).
func WithProgressInterval(d time.Duration) Option {
	return func(c *config) { c.progressInterval = d }
}

// progressToken returns the progress token of req, nil when it has none, or none MCP
// allows (a string or an integer).
func progressToken(req *mcp.CallToolRequest) any {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	switch t := req.Params.GetProgressToken().(type) {
	case string, int, int32, int64:
		return t
	case float64:
		if t == float64(int64(t)) {
			return t
		}
	}
	return nil
}

// progressSender sends the progress of one call to the client, rate-limited and
// monotonic. observe, the call's progress listener, only records the report; a
// goroutine, started by the first report, sends.
type progressSender struct {
	ctx      context.Context // the request's: over HTTP, the SDK sends on the request's stream
	session  *mcp.ServerSession
	token    any
	interval time.Duration

	mu      sync.Mutex
	last    float64                           // the progress of the newest report accepted
	any     bool                              // whether one was
	queue   []*mcp.ProgressNotificationParams // to send, in order
	held    *mcp.ProgressNotificationParams   // the newest report of the interval, to send at next
	next    time.Time                         // when the interval since the last one queued ends
	running bool                              // the goroutine was started
	closed  bool

	wake   chan struct{} // a report came (buffered: one is enough)
	flush  chan struct{} // closed when the call ended: send what is left, then stop
	exited chan struct{} // closed by the goroutine as it ends
}

// maxProgressQueue bounds the notifications waiting for a slow client; past it, the
// newest report replaces the last one waiting.
const maxProgressQueue = 64

func newProgressSender(ctx context.Context, session *mcp.ServerSession, token any, interval time.Duration) *progressSender {
	if interval == 0 {
		interval = DefaultProgressInterval
	}
	return &progressSender{
		ctx: ctx, session: session, token: token, interval: interval,
		wake: make(chan struct{}, 1), flush: make(chan struct{}), exited: make(chan struct{}),
	}
}

// observe is the call's progress.Observer.
func (s *progressSender) observe(_ context.Context, p progress.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || (s.any && p.Done <= s.last) {
		return // MCP asks progress to increase
	}
	s.any, s.last = true, p.Done
	n := &mcp.ProgressNotificationParams{ProgressToken: s.token, Progress: p.Done, Total: p.Total, Message: p.Message}
	if now := time.Now(); s.interval < 0 || !now.Before(s.next) {
		s.enqueue(n, now)
	} else {
		s.held = n
	}
	if !s.running {
		s.running = true
		go s.run()
		return
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// enqueue queues n, sent at now, and starts the next interval; s.mu is held.
func (s *progressSender) enqueue(n *mcp.ProgressNotificationParams, now time.Time) {
	if len(s.queue) == maxProgressQueue {
		s.queue[len(s.queue)-1] = n
	} else {
		s.queue = append(s.queue, n)
	}
	s.held = nil
	s.next = now.Add(s.interval)
}

// run sends what is queued, and the report held back once its interval is over, until
// the call ends.
func (s *progressSender) run() {
	defer close(s.exited)
	for {
		s.mu.Lock()
		now := time.Now()
		if s.held != nil && (s.closed || !now.Before(s.next)) {
			s.enqueue(s.held, now)
		}
		batch, closed := s.queue, s.closed
		s.queue = nil
		var wait time.Duration
		if s.held != nil {
			wait = s.next.Sub(now)
		}
		s.mu.Unlock()
		for _, n := range batch {
			// An error (the client went away, the request was canceled) loses this
			// notification; the call goes on.
			_ = s.session.NotifyProgress(s.ctx, n)
		}
		if closed {
			return // all was taken after the call ended: nothing can follow
		}
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-s.flush:
				t.Stop()
			}
			continue
		}
		select {
		case <-s.wake:
		case <-s.flush:
		}
	}
}

// close ends the call's progress: what is left is sent, and close returns once nothing
// more will be, so that no notification follows the result.
func (s *progressSender) close() {
	s.mu.Lock()
	s.closed = true
	running := s.running
	s.mu.Unlock()
	close(s.flush)
	if running {
		<-s.exited
	}
}
