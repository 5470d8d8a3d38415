// The JUnit 5 test a Java team runs under `cashout-sandbox test SUITE --serve --exec` or `explore
// --exec` (the Testing your app guide, "A Java service"): it runs the payout service against the
// sandbox the variables name, lets the suite's steps drive the bank, and passes when the sandbox's
// verdict does ($CASHOUT_SANDBOX_SUITE_URL). The sandbox judges; the test ends when the steps do.
//   javac -d build -cp junit-platform-console-standalone.jar *.java
//   cashout-sandbox test scenarios/certify.json --serve --port 0 \
//     --exec "java -jar junit-platform-console-standalone.jar -cp build --select-class PayoutWorkersTest"
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PayoutWorkersTest {
    @Test
    void thePayoutServiceSatisfiesTheSandbox() throws Exception {
        String backoff = System.getenv().getOrDefault("BACKOFF_MS", "100");
        try (PayoutWorkers service = new PayoutWorkers(Duration.ofMillis(Long.parseLong(backoff)))) {
            service.start();
            service.payOrders();
            assertEquals("passed", service.waitForTheSuite(Duration.ofMinutes(5)), "the sandbox's verdict: its output says why");
        }
    }
}
