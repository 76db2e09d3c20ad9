package bench

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The served table runs on a shared 2-core machine where other people may
// be compiling. loadWatch says how much of the machine went elsewhere
// while a round ran: the CPU time the kernel counted as busy on every
// core (/proc/stat), less what this test process and its servers used,
// is what other processes took. Steal is time the hypervisor gave to
// other machines. Both are shares of all cores over the round's wall time.

// clockTicks is USER_HZ, the unit of /proc/stat: 100 on every Linux
// architecture Go runs on (getconf CLK_TCK).
const clockTicks = 100

type loadWatch struct {
	start             time.Time
	busy, steal, self time.Duration
	servers           int64
	ok                bool
}

// roundLoad is what a loadWatch saw, as shares of the machine (0 to 1).
type roundLoad struct {
	others, steal float64
	known         bool
}

func (l roundLoad) String() string {
	if !l.known {
		return "unknown (no /proc/stat)"
	}
	return fmt.Sprintf("others %.0f %%, steal %.0f %%", 100*l.others, 100*l.steal)
}

func watchLoad(procs []*servedProc) loadWatch {
	w := loadWatch{start: time.Now()}
	w.busy, w.steal, w.ok = machineCPU()
	w.self = selfCPU()
	w.servers = serversCPU(procs)
	return w
}

func (w loadWatch) stop(procs []*servedProc) roundLoad {
	busy, steal, ok := machineCPU()
	if !ok || !w.ok {
		return roundLoad{}
	}
	ours := selfCPU() - w.self + time.Duration(serversCPU(procs)-w.servers)
	machine := float64(time.Since(w.start)) * float64(runtime.NumCPU())
	return roundLoad{
		others: max(0, float64(busy-w.busy-ours)/machine),
		steal:  float64(steal-w.steal) / machine,
		known:  true,
	}
}

// machineCPU is the busy and stolen time of all cores since boot.
func machineCPU() (busy, steal time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal ...
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0, false
	}
	var ticks [9]int64
	for i := 1; i < 9; i++ {
		if ticks[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
			return 0, 0, false
		}
	}
	tick := time.Second / clockTicks
	busyTicks := ticks[1] + ticks[2] + ticks[3] + ticks[6] + ticks[7]
	return time.Duration(busyTicks) * tick, time.Duration(ticks[8]) * tick, true
}

// selfCPU is this test process's user and system time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serversCPU is the CPU time of the server processes, in nanoseconds.
func serversCPU(procs []*servedProc) int64 {
	var total int64
	for _, p := range procs {
		if s, err := p.stats(); err == nil {
			total += s.CPUNanos
		}
	}
	return total
}

// loadAverage is /proc/loadavg's 1-minute figure, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
