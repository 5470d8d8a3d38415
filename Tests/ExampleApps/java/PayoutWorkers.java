// A D24 payout service shaped as a Java team writes one (the Testing your app guide, "A Java
// service"): the JDK's HttpClient, a pool of 4 workers sending creates at once, each create and
// status query retried with exponential backoff and jitter, each notification checked (control),
// answered at once and followed up in the background, a poller for payouts with no news, a ledger
// served at $CASHOUT_SANDBOX_APP_PORT/ledger, and what it still has to do at /settled ({"pending": N},
// the Testing your app guide, "Saying when your app is settled"; NO_SETTLED=1: none). The JDK only:
// no JSON library, no framework.
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public final class PayoutWorkers implements AutoCloseable {
    /** An answer: its HTTP status and the value of a top-level field of its JSON body. */
    record Answer(int status, String body) {
        String field(String name) {
            Matcher match = Pattern.compile("\"" + name + "\"\\s*:\\s*\"?([^\",}]*)").matcher(body);
            return match.find() ? match.group(1) : null;
        }
    }

    /** D24's status descriptions (POST /v3/cashout/status) as the ledger writes them. */
    static final Map<String, String> WORDS = Map.of("Pending", "PENDING", "Delivered", "DELIVERED", "Completed", "COMPLETED",
                                                    "Rejected", "REJECTED", "Canceled", "CANCELLED", "On Hold", "ON_HOLD");

    private final String base = System.getenv("CASHOUT_SANDBOX_URL");
    private final String login = System.getenv("CASHOUT_SANDBOX_D24_LOGIN");
    private final String pass = System.getenv("CASHOUT_SANDBOX_D24_PASS");
    private final byte[] secret = System.getenv("CASHOUT_SANDBOX_D24_SECRET_KEY").getBytes(StandardCharsets.UTF_8);
    private final Duration firstBackoff;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ExecutorService workers = Executors.newFixedThreadPool(4);
    private final ExecutorService followUps = Executors.newCachedThreadPool();
    /** By external_id: the amount asked, the status learnt, when the service last heard of it, one follow-up at a time. */
    private final Map<String, String> amounts = new ConcurrentHashMap<>();
    private final Map<String, String> statuses = new ConcurrentHashMap<>();
    private final Map<String, Long> news = new ConcurrentHashMap<>();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();
    private final List<HttpServer> servers = new ArrayList<>();
    /** Creates queued or in flight, follow-ups not yet made, retries waiting: what /settled answers. */
    private final AtomicInteger pending = new AtomicInteger();
    private String notificationURL;

    public PayoutWorkers(Duration firstBackoff) {
        this.firstBackoff = firstBackoff;
    }

    /** Serves the ledger and the notification URL, and starts the poller. */
    public void start() throws IOException {
        HttpServer ledger = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getenv("CASHOUT_SANDBOX_APP_PORT"))), 0);
        ledger.createContext("/ledger", exchange -> {
            byte[] body = ledgerJSON().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        if (System.getenv("NO_SETTLED") == null) {
            ledger.createContext("/settled", exchange -> {
                byte[] body = ("{\"pending\":" + pending.get() + "}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
        }
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/notifications", exchange -> {
            Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            String externalID = form.getOrDefault("external_id", "");
            boolean trusted = control(externalID).equals(form.get("control"));
            if (trusted && amounts.containsKey(externalID)) submit(followUps, () -> followUp(externalID));
            exchange.sendResponseHeaders(trusted ? 200 : 401, -1);
            exchange.close();
        });
        for (HttpServer server : List.of(ledger, receiver)) {
            server.setExecutor(Executors.newCachedThreadPool());
            server.start();
            servers.add(server);
        }
        notificationURL = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/notifications";
        Thread poller = new Thread(this::poll, "poller");
        poller.setDaemon(true);
        poller.start();
    }

    /** Sends the nine orders (BRL 101.00 to 109.00) to the pool, in a random order. */
    public void payOrders() {
        List<Integer> orders = new ArrayList<>();
        for (int amount = 101; amount <= 109; amount++) orders.add(amount);
        Collections.shuffle(orders);
        for (int amount : orders) submit(workers, () -> create("shop-order-" + amount, amount + ".00"));
    }

    /** Runs `work` on `pool`, counted as pending from now until it has ended (queued, waiting or in flight). */
    private void submit(ExecutorService pool, Runnable work) {
        pending.incrementAndGet();
        pool.submit(() -> {
            try {
                work.run();
            } finally {
                pending.decrementAndGet();
            }
        });
    }

    void create(String externalID, String amount) {
        amounts.put(externalID, amount);
        news.put(externalID, System.nanoTime());
        String fields = "\"external_id\":\"" + externalID + "\",\"country\":\"BR\",\"currency\":\"BRL\",\"amount\":\"" + amount
            + "\",\"document_id\":\"01716001340\",\"document_type\":\"CPF\",\"beneficiary_name\":\"Ana\",\"beneficiary_lastname\":\"Silva\","
            + "\"bank_code\":\"001\",\"bank_account\":\"3423422-7\",\"bank_branch\":\"1234\",\"account_type\":\"C\","
            + "\"notification_url\":\"" + notificationURL + "\"";
        Answer answer = retrying("/v3/cashout", fields);
        if (answer != null && answer.status() == 200) {
            statuses.putIfAbsent(externalID, "PENDING");
        } else if (answer != null && "511".equals(answer.field("code"))) {
            followUp(externalID);  // made before, its answer lost: found by its external_id
        }
    }

    /** Asks for a payout's status and books it, one follow-up of a payout at a time (the last answer booked is the newest). */
    void followUp(String externalID) {
        news.put(externalID, System.nanoTime());
        synchronized (locks.computeIfAbsent(externalID, id -> new Object())) {
            Answer answer = retrying("/v3/cashout/status", "\"external_id\":\"" + externalID + "\"");
            if (answer != null && answer.status() == 200) statuses.put(externalID, WORDS.get(answer.field("cashout_status_description")));
        }
    }

    /** Every 500 ms, asks for the status of each payout not final that had no news for 3 s. */
    private void poll() {
        while (true) {
            try { Thread.sleep(500); } catch (InterruptedException stopped) { return; }
            for (Map.Entry<String, Long> heard : news.entrySet()) {
                String status = statuses.get(heard.getKey());
                boolean settled = "COMPLETED".equals(status) || "REJECTED".equals(status) || "CANCELLED".equals(status);
                if (!settled && System.nanoTime() - heard.getValue() > TimeUnit.SECONDS.toNanos(3)) {
                    pending.incrementAndGet();
                    try {
                        followUp(heard.getKey());
                    } finally {
                        pending.decrementAndGet();
                    }
                }
            }
        }
    }

    /** A signed D24 request, sent until it is answered below 500: exponential backoff from `firstBackoff`, at most 1.6 s, ±25 %. */
    Answer retrying(String path, String fields) {
        for (int attempt = 0; attempt < 8; attempt++) {
            Answer answer = call(path, fields);
            if (answer != null && answer.status() < 500) return answer;
            long delay = Math.min(firstBackoff.toMillis() << attempt, Math.max(firstBackoff.toMillis(), 1600));
            try { Thread.sleep((long) (delay * ThreadLocalRandom.current().nextDouble(0.75, 1.25))); } catch (InterruptedException stopped) { return null; }
        }
        return null;
    }

    /** POSTs `{"login", "pass", fields...}` with its Payload-Signature; null when no answer came (the connection closed: a create may have been made). */
    Answer call(String path, String fields) {
        String body = "{\"login\":\"" + login + "\",\"pass\":\"" + pass + "\"," + fields + "}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json").header("Payload-Signature", hmac(body, false))
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            // Asked to wait (429, a gateway's rate limit): sent again once Retry-After's seconds have passed, up to 5 times.
            for (int waits = 0; response.statusCode() == 429 && waits < 5; waits++) {
                Thread.sleep(1000L * response.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L));
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            }
            return new Answer(response.statusCode(), response.body());
        } catch (IOException lost) {
            return null;
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** A notification's control: the uppercase hex HMAC-SHA256 of "Be4" + external_id + "Bo7". */
    String control(String externalID) {
        return hmac("Be4" + externalID + "Bo7", true);
    }

    private String hmac(String text, boolean uppercase) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            String hex = HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
            return uppercase ? hex.toUpperCase() : hex;
        } catch (java.security.GeneralSecurityException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** `{"payouts": [{"external_id", "status", "amount"}]}`: the payouts D24 took, as the service believes them. */
    String ledgerJSON() {
        List<String> rows = new ArrayList<>();
        statuses.forEach((id, status) -> rows.add("{\"external_id\":\"" + id + "\",\"status\":\"" + status + "\",\"amount\":\"" + amounts.get(id) + "\"}"));
        return "{\"payouts\":[" + String.join(",", rows) + "]}";
    }

    /** Waits until $CASHOUT_SANDBOX_SUITE_URL says the steps are over: its state, passed or failed. */
    public String waitForTheSuite(Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> suite = http.send(HttpRequest.newBuilder(URI.create(System.getenv("CASHOUT_SANDBOX_SUITE_URL"))).build(),
                                                   HttpResponse.BodyHandlers.ofString());
            String state = new Answer(suite.statusCode(), suite.body()).field("state");
            if (!"running".equals(state)) return state;
            Thread.sleep(100);
        }
        return "running";
    }

    private static Map<String, String> form(String body) {
        Map<String, String> fields = new ConcurrentHashMap<>();
        for (String pair : body.split("&")) {
            String[] parts = pair.split("=", 2);
            if (parts.length == 2) fields.put(URLDecoder.decode(parts[0], StandardCharsets.UTF_8), URLDecoder.decode(parts[1], StandardCharsets.UTF_8));
        }
        return fields;
    }

    @Override
    public void close() {
        workers.shutdownNow();
        followUps.shutdownNow();
        for (HttpServer server : servers) server.stop(0);
    }
}
