package io.poolbudget.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * What the agent applied, for the operator to read: any request to the port gets the last {@link Resizer.Snapshot}
 * and the pod's {@link Demand} as JSON over HTTP/1.0. Read-only, one request at a time, a few hundred bytes: no HTTP server library (the JDK's
 * is not in every runtime image), and nothing the application could notice.
 */
final class StatusServer {
    private final ServerSocket socket;
    private final Resizer resizer;
    private final Demand demand;

    StatusServer(int port, Resizer resizer, Demand demand) throws IOException {
        this.socket = new ServerSocket();
        this.socket.bind(new InetSocketAddress(port));
        this.resizer = resizer;
        this.demand = demand;
    }

    int port() {
        return socket.getLocalPort();
    }

    void start() {
        Thread t = new Thread(this::serve, "poolbudget-agent-status");
        t.setDaemon(true);
        t.start();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                s.setSoTimeout(2000);
                drainRequestLine(s.getInputStream());
                byte[] body = resizer.last().json(demand.demand()).getBytes(StandardCharsets.UTF_8);
                OutputStream out = s.getOutputStream();
                out.write(("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
            } catch (IOException e) {
                // a client that went away; the next one is served
            }
        }
    }

    /** Reads the request's headers (up to 8 KiB, until the blank line); what was asked does not matter. */
    private static void drainRequestLine(InputStream in) throws IOException {
        int newlines = 0;
        long deadline = System.nanoTime() + 2_000_000_000L; // a slow client gets 2 s in all, not 2 s per byte
        for (int i = 0; i < 8192 && newlines < 2 && System.nanoTime() < deadline; i++) {
            int b = in.read();
            if (b < 0) {
                return;
            }
            newlines = b == '\n' ? newlines + 1 : b == '\r' ? newlines : 0;
        }
    }
}
