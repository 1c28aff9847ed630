//go:build ignore

// createfiles times creating 5,000 files of 1,100 bytes in a new directory, on 1, 2
// and 4 goroutines, three rounds, wall and CPU time (user+sys) of the process:
//
//	go run createfiles.go /path/on/the/disk/to/measure

package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	base := os.Args[1]
	for r := 0; r < 3; r++ {
		for _, g := range []int{1, 2, 4} {
			dir := fmt.Sprintf("%s/r%d-g%d", base, r, g)
			os.MkdirAll(dir, 0o755)
			t, c := time.Now(), cpu()
			var wg sync.WaitGroup
			for k := 0; k < g; k++ {
				wg.Go(func() {
					buf := make([]byte, 1100)
					for i := k; i < 5000; i += g {
						f, err := os.OpenFile(dir+"/t"+strconv.Itoa(i)+".json", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
						if err != nil {
							panic(err)
						}
						f.Write(buf)
						f.Close()
					}
				})
			}
			wg.Wait()
			fmt.Printf("round=%d goroutines=%d wall=%v cpu=%v\n", r, g, time.Since(t).Round(time.Millisecond), (cpu() - c).Round(time.Millisecond))
		}
	}
}
