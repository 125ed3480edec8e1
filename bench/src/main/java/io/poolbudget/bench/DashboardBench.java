package io.poolbudget.bench;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard with many policies: how long its JSON endpoint takes per page, filtered and not,
 * and how long Chromium takes from navigation to the first page of policies on screen. Run by
 * bench/dashboard.sh against an operator that manages the policies it created.
 */
public class DashboardBench {
    public static void main(String[] args) throws Exception {
        String base = "http://localhost:" + args[0] + "/dashboard/";
        int total = Integer.parseInt(args[1]);
        var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        System.out.printf(Locale.ROOT, "%-44s %9s %9s %10s%n", "request (" + total + " policies)", "median ms",
                "p90 ms", "bytes");
        for (String q : List.of("page=1&size=25", "page=" + (total / 25) + "&size=25", "page=1&size=100",
                "q=99", "problems=true", "namespace=bench-dash-3")) {
            List<Double> ms = new ArrayList<>();
            int bytes = 0;
            for (int i = 0; i < 45; i++) {
                long t0 = System.nanoTime();
                var r = http.send(HttpRequest.newBuilder(URI.create(base + "api/policies?" + q)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException(q + " answered " + r.statusCode());
                }
                if (i >= 15) {
                    ms.add((System.nanoTime() - t0) / 1e6);
                }
                bytes = r.body().length();
            }
            Collections.sort(ms);
            System.out.printf(Locale.ROOT, "%-44s %9.1f %9.1f %10d%n", "GET api/policies?" + q, ms.get(ms.size() / 2),
                    ms.get((int) (ms.size() * 0.9)), bytes);
        }
        var options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless=new", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                "--user-data-dir=" + Files.createTempDirectory("bench-chromium"));
        var service = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort().build();
        var browser = new ChromeDriver(service, options);
        try {
            List<Double> draw = new ArrayList<>();
            long heap = 0;
            int cards = 0;
            for (int i = 0; i < 13; i++) {
                browser.get("about:blank");
                browser.get(base);
                Object ms = null;
                for (int w = 0; w < 200 && ms == null; w++) {
                    ms = browser.executeScript("return document.documentElement.dataset.firstDrawMs || null");
                    if (ms == null) {
                        Thread.sleep(25);
                    }
                }
                if (ms == null) {
                    throw new IllegalStateException("the page drew nothing within 5 s");
                }
                cards = browser.findElements(By.cssSelector("article[data-policy]")).size();
                heap = ((Number) browser.executeScript("return performance.memory.usedJSHeapSize")).longValue();
                if (i >= 3) {
                    draw.add(Double.parseDouble(ms.toString()));
                }
            }
            Collections.sort(draw);
            System.out.printf(Locale.ROOT, "chromium: navigation to %d policies drawn: median %.0f ms, p90 %.0f ms"
                    + " (10 loads); page JS heap %.1f MiB%n", cards, draw.get(draw.size() / 2),
                    draw.get((int) (draw.size() * 0.9)), heap / 1048576.0);
        } finally {
            browser.quit();
        }
    }
}
