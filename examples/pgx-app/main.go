// pgx-app: a small Go service on pgxpool, the way Go services take their pool size: only from the
// connection string (pool_max_conns, pool_min_conns in DATABASE_URL). It opens its pool at start,
// serves /healthz, /pool (the pool's own figures) and /work?ms=N (a short transaction), and closes
// its pool on SIGTERM. PoolBudget sizes it with preset pgx (mode EnvFrom): the URL refers to
// $(POOLBUDGET_MAX_POOL_SIZE) from the operator's ConfigMap.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

func main() {
	url := os.Getenv("DATABASE_URL")
	if url == "" {
		log.Fatal("DATABASE_URL is not set")
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// a literal $(POOLBUDGET_MAX_POOL_SIZE) left in the URL ends here: the pod does not start
		log.Fatalf("DATABASE_URL: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		log.Fatalf("pool: %v", err)
	}
	if err := warm(ctx, pool, cfg.MaxConns); err != nil {
		log.Fatalf("could not open %d connections: %v", cfg.MaxConns, err)
	}
	log.Printf("pool open: pool_max_conns=%d pool_min_conns=%d", cfg.MaxConns, cfg.MinConns)

	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/pool", func(w http.ResponseWriter, r *http.Request) {
		s := pool.Stat()
		json.NewEncoder(w).Encode(map[string]int32{"maxConns": s.MaxConns(), "totalConns": s.TotalConns(),
			"idleConns": s.IdleConns()})
	})
	mux.HandleFunc("/work", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		c, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		if _, err := pool.Exec(c, "select pg_sleep($1)", float64(ms)/1000); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "done")
	})
	server := &http.Server{Addr: ":8080", Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := server.ListenAndServe(); err != http.ErrServerClosed {
			log.Fatalf("http: %v", err)
		}
	}()
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	server.Shutdown(shutdown)
	pool.Close()
	log.Print("pool closed")
}

// warm opens the whole pool at once, as a busy service would, so the database counts what the pod may hold.
func warm(ctx context.Context, pool *pgxpool.Pool, n int32) error {
	conns := make([]*pgxpool.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for i := int32(0); i < n; i++ {
		conn, err := pool.Acquire(c)
		if err != nil {
			return err
		}
		conns = append(conns, conn)
	}
	return nil
}
