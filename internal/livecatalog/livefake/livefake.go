// Package livefake provides loopback fakes of the two APIs the live catalog reads, speaking their real
// wire formats: the EC2 Query API (DescribeInstanceTypes, XML, NextToken paging, EC2 error documents) and
// the Azure Resource Manager Resource SKUs list (JSON, nextLink paging, ARM error documents). Tests of
// internal/livecatalog and of the provider use them; nothing else does.
package livefake

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Reply is a scripted response served instead of the normal one.
type Reply struct {
	Status int
	Header map[string]string
	Body   string
	Delay  time.Duration // wait before answering (ends early when the client goes away)
}

// script is the shared part of both fakes: scripted replies, a call counter and a failure hook.
type script struct {
	mu      sync.Mutex
	replies []Reply
	calls   atomic.Int64
}

// Calls returns how many requests the fake has received.
func (s *script) Calls() int { return int(s.calls.Load()) }

// Script queues replies served, in order, before the normal answers resume.
func (s *script) Script(r ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, r...)
}

// next serves the next scripted reply, if any, and reports whether it did.
func (s *script) next(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	if len(s.replies) == 0 {
		s.mu.Unlock()
		return false
	}
	rep := s.replies[0]
	s.replies = s.replies[1:]
	s.mu.Unlock()
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return true
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(rep.Status)
	fmt.Fprint(w, rep.Body)
	return true
}

// Forbidden is an http.Handler that fails the test (through fail) on any request: for checking that no
// network call is made.
func Forbidden(fail func(format string, args ...any)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail("unexpected network call: %s %s", r.Method, r.URL.Path)
		http.Error(w, "no calls expected", http.StatusTeapot)
	})
}
