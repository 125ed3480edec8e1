package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The dashboard in a real browser (Debian's chromium, driven through its chromedriver) against the
 * operator and real policies on the KWOK cluster: the numbers the status holds, a live update when a
 * Deployment scales, no console errors, nothing loaded from elsewhere, and screenshots in
 * target/screenshots for a person to look at.
 */
class DashboardIT extends OperatorTestBase {
    private static final Path SHOTS = Path.of("target/screenshots");
    private static ChromeDriver browser;
    @RegisterExtension
    final SharedBudgetFixture shared = new SharedBudgetFixture(getClass());

    @BeforeAll
    static void start() throws Exception {
        startOperator("dashboard", "0s");
        Files.createDirectories(SHOTS);
        var options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless=new", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                "--user-data-dir=" + Files.createTempDirectory("poolbudget-chromium"));
        var logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        var service = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void quit() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void showsEachPoliciesNumbersAndFollowsAScaleUpWithoutConsoleErrors() throws Exception {
        create(deployment("web", 2, Map.of()));
        create(deployment("worker", 1, Map.of()));
        create(deployment("batch", 3, Map.of()));
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: orders-db}
                spec:
                  database: {name: orders, cores: 8}
                  injection: {preset: hikari-env}
                  targets: [{name: web, weight: 2}, {name: worker}]
                """);
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: reports-db}
                spec:
                  database: {name: reports, cores: 1}
                  injection: {preset: hikari-env}
                  targets: [{name: batch, minPoolSize: 4}]
                """);
        awaitPolicy("orders-db", p -> p.getStatus().getTargets().size() == 2
                && p.getStatus().getTargets().stream().allMatch(t -> "Applied".equals(t.getState())));
        awaitPolicy("reports-db", p -> p.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Oversubscribed") && c.getStatus().equals("True")));

        browser.get("http://localhost:" + operator.port() + "/dashboard/");
        // the page redraws while the cluster changes: find elements afresh, and retry a click that found a stale one
        await(() -> {
            browser.findElement(By.cssSelector("#namespace option[value='" + ns + "']")).click();
            return ns.equals(browser.findElement(By.id("namespace")).getDomProperty("value"));
        });
        await(() -> browser.findElements(By.cssSelector("article[data-policy]")).size() == 2);
        awaitShows("orders-db");
        WebElement reports = policyCard("reports-db");
        assertThat(reports.getAttribute("class")).contains("problem");
        assertThat(reports.getText()).contains("needs attention");
        assertThat(browser.findElement(By.id("total-problems")).getText()).isEqualTo("1");
        shot("dashboard-1-two-policies");

        client.apps().deployments().inNamespace(ns).withName("web").scale(6);
        PoolPolicy scaled = awaitPolicy("orders-db", p -> Long.valueOf(6).equals(target(p, "web").getBasisReplicas())
                && "Applied".equals(target(p, "web").getState()));
        await(() -> cell("orders-db", "Deployment/web", "peakPods").equals(n(target(scaled, "web").getPeakPods())));
        awaitShows("orders-db");
        for (int i = 0; i < 2; i++) {
            int section = i;
            await(() -> {
                WebElement details = policyCard("orders-db").findElements(By.tagName("details")).get(section);
                if (details.getDomProperty("open").equals("false")) {
                    details.findElement(By.tagName("summary")).click();
                }
                return policyCard("orders-db").findElements(By.tagName("details")).get(section).getDomProperty("open")
                        .equals("true");
            });
        }
        shot("dashboard-2-after-scale-up-details-open");
        // the open sections stay open across the page's refreshes
        Thread.sleep(2500);
        assertThat(policyCard("orders-db").findElements(By.cssSelector("details[open]"))).hasSize(2);
        assertThat(policyCard("orders-db").getText()).contains("= cores 8 × 2 per core", "PoolSizeApplied");

        List<LogEntry> severe = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue()).toList();
        assertThat(severe).as("browser console warnings and errors").isEmpty();
        @SuppressWarnings("unchecked")
        List<String> loaded = (List<String>) browser.executeScript(
                "return performance.getEntriesByType('resource').map(e => e.name)");
        assertThat(loaded).isNotEmpty()
                .allMatch(u -> u.startsWith("http://localhost:" + operator.port() + "/dashboard/"));
    }

    /**
     * Issue 46, item 6: the page by database. A DatabaseBudget of 32 shared by two namespaces (weights 3 and 1) is one
     * card: the whole budget, each namespace's weight and share (24 and 8), what is held outside its admitted
     * policies, and both policies nested in it, not two unrelated cards with budgets 24 and 8.
     */
    @Test
    void aDatabaseBudgetIsOneCardWithItsWholeBudgetEachNamespacesShareAndItsPolicies() throws Exception {
        String nsA = ns;
        String nsB = otherNamespace();
        shared.admit(nsA);
        shared.admit(nsB);
        shared.apply("{name: shared-pg, budget: 32}", nsA, 3, nsB, 1);
        create(deployment("a", 2, Map.of()));
        applyPolicy(shared.policy("hikari-env", "a"));
        in(nsB, () -> {
            create(deployment("b", 1, Map.of()));
            applyPolicy(shared.policy("hikari-env", "b"));
        });
        awaitPolicy("db", p -> p.getStatus().getBudget() != null && p.getStatus().getBudget().getConnections() == 24L);
        in(nsB, () -> awaitPolicy("db", p -> p.getStatus().getBudget() != null
                && p.getStatus().getBudget().getConnections() == 8L));

        browser.get("http://localhost:" + operator.port() + "/dashboard/");
        await(() -> {
            var search = browser.findElement(By.id("search"));
            if (!shared.name.equals(search.getDomProperty("value"))) {
                search.clear();
                search.sendKeys(shared.name);
            }
            return browser.findElements(By.cssSelector("section[data-database='" + shared.name + "']")).size() == 1;
        });
        await(() -> card().findElement(By.cssSelector("[data-field=databaseline]")).getText()
                .contains("of 32 connections allocated to its policies"));
        await(() -> share(nsA, "share").equals("24") && share(nsB, "share").equals("8"));
        assertThat(share(nsA, "weight")).isEqualTo("3");
        assertThat(share(nsB, "weight")).isEqualTo("1");
        assertThat(card().findElements(By.cssSelector("article[data-policy]"))).extracting(e -> e.getAttribute(
                "data-policy")).containsExactlyInAnyOrder(nsA + "/db", nsB + "/db");
        assertThat(browser.findElements(By.cssSelector("#policies > article[data-policy]")))
                .as("no policy of the budget outside its card").isEmpty();
        shot("dashboard-3-database-budget");
    }

    private WebElement card() {
        return browser.findElement(By.cssSelector("section[data-database='" + shared.name + "']"));
    }

    private String share(String namespace, String field) {
        return card().findElement(By.cssSelector("tr[data-share='" + namespace + "/db'] [data-field=" + field + "]"))
                .getText();
    }

    @Test
    void isReadOnly() throws Exception {
        var http = Scrape.HTTP;
        var base = "http://localhost:" + operator.port() + "/dashboard/";
        for (String path : List.of("", "api/policies")) {
            var post = http.send(
                    HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as("POST " + path).isEqualTo(405);
            var get = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(200);
            assertThat(get.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp)
                    .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"));
        }
    }

    /**
     * The page and the status agree (both move while pods come and go: compare fresh copies until they do). The page
     * redraws its cards when it polls, so an element found a moment ago may be gone: look it up again next time.
     */
    private void awaitShows(String policy) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .ignoreException(org.openqa.selenium.StaleElementReferenceException.class).untilAsserted(
                        () -> assertShows(client.resources(PoolPolicy.class).inNamespace(ns).withName(policy).get()));
    }

    private void assertShows(PoolPolicy p) {
        WebElement card = policyCard(p.getMetadata().getName());
        var st = p.getStatus();
        assertThat(card.findElement(By.cssSelector("[data-field=budgetline]")).getText()).startsWith(
                n(st.getAllocated()) + " of " + n(st.getBudget().getConnections()) + " connections allocated");
        for (TargetStatus t : st.getTargets()) {
            String id = t.getKind() + "/" + t.getName();
            assertThat(cell(p.getMetadata().getName(), id, "peakPods")).isEqualTo(n(t.getPeakPods()));
            assertThat(cell(p.getMetadata().getName(), id, "poolSize"))
                    .isEqualTo(n(t.getPoolSize()) + " / " + n(t.getAppliedPoolSize()));
            assertThat(cell(p.getMetadata().getName(), id, "connections"))
                    .isEqualTo(n(t.getConnections()) + " / " + n(t.getLiveConnections()));
        }
    }

    private WebElement policyCard(String name) {
        return browser.findElement(By.cssSelector("article[data-policy='" + ns + "/" + name + "']"));
    }

    private String cell(String policy, String target, String field) {
        return policyCard(policy)
                .findElement(By.cssSelector("tr[data-target='" + target + "'] [data-field=" + field + "]"))
                .getText();
    }

    private static String n(Number v) {
        return v == null ? "–" : String.format(java.util.Locale.ENGLISH, "%,d", v.longValue());
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(condition);
    }

    private static void shot(String name) throws Exception {
        Files.write(SHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }
}
