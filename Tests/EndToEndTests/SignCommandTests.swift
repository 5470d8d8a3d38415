import Testing

/// `cashout-sandbox sign`, checked on D24's own examples ("Calculating the Payload-Signature", "Notifications").
@Suite struct SignCommandTests {
    @Test func signsABodyGivenAsAnArgument() throws {
        let (status, out, _) = try RunningBinary.run(["sign", "--secret", "cashout_secret_key",
                                                      #"{"login":"cashout_login","pass":"cashout_pass","cashout_id":11954}"#])
        #expect(status == 0)
        #expect(out == "db96878e3d4066e680a1dbebc977546276e1427aefbe14ead1b410a76d45cc60\n")
    }

    @Test func signsStandardInputWhenNoBodyIsGiven() throws {
        let (status, out, _) = try RunningBinary.run(["sign", "--secret", "cashout_secret_key"])  // stdin is empty
        #expect(status == 0)
        #expect(out == "8d3e2b061e753c88e401ac8737e6dc7af9e02d590fd1dd4d5e1ded9f4430487c\n")
    }

    @Test func printsANotificationControl() throws {
        let (_, out, _) = try RunningBinary.run(["sign", "--secret", "your_cashout_api_signature", "--control", "cashoutID1234"])
        #expect(out == "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D\n")
    }

    /// `--api prism` (or `payoutservice`, any case): the `X-Webhook-Signature` the sandbox sends
    /// with a webhook body, keyed with the default merchant's API key unless `--secret` says.
    /// Expected values: `printf %s "$BODY" | openssl dgst -sha256 -hmac KEY`.
    static let webhook = #"{"connector_payout_id":"1000001","created_at":"2026-01-05T09:00:05Z","event_id":"evt_1","#
        + #""merchant_payout_id":"order-1","payout_status":"INITIATED"}"#

    @Test(arguments: [
        (["sign", "--api", "prism", webhook], "sha256=303e0a01845d88325e0ae2fc1b70c01469f80434490bbcb0727fc9580ed0dd19\n"),
        (["sign", "--api=PayoutService", "--secret", "acme_key", webhook],
         "sha256=713fc4c8179b348bde639441ae26f156feb6fff626e11c192f6925050bce8f42\n"),
        (["sign", "--api", "prism"], "sha256=c7f9a142460190bdd25e91edd8a721323dde6f9a3c61f2c47a6c1860a4071a45\n"),  // stdin is empty
        // D24 named, or not: the same bytes as before --api existed.
        (["sign", "--api", "d24", "--secret", "cashout_secret_key"], "8d3e2b061e753c88e401ac8737e6dc7af9e02d590fd1dd4d5e1ded9f4430487c\n"),
        (["sign", "--api", "d24", "--secret", "your_cashout_api_signature", "--control", "cashoutID1234"],
         "DDD345FB66A8053FBB69E0DBCACFDE5F63CA05140C3A2C446B7A0E4118F8BA1D\n"),
    ] as [([String], String)])
    func signsForTheAPINamed(arguments: [String], out expected: String) throws {
        let (status, out, err) = try RunningBinary.run(arguments)
        #expect(status == 0 && err.isEmpty)
        #expect(out == expected)
    }

    @Test(arguments: [
        (["sign", "--api", "mannco", "{}"], "error: Mannco has nothing to sign: its calls carry the JWT that POST /user/login answers, "
            + "and its notifications are emails; sign signs for d24 or prism\nSee 'cashout-sandbox sign --help'.\n"),
        (["sign", "--api", "paypal", "{}"], "error: option '--api' expects d24 or prism (PayoutService), got 'paypal'\n"
            + "See 'cashout-sandbox sign --help'.\n"),
        (["sign", "--api", "prism", "--control", "order-1"], "error: --control is D24's notification control; PayoutService signs the "
            + "webhook's body\nSee 'cashout-sandbox sign --help'.\n"),
        (["sign", "--api", "prism", "{}", "{}"], "error: sign takes one BODY argument; quote it\nSee 'cashout-sandbox sign --help'.\n"),
        (["sign", "--api"], "error: option '--api' needs a value (d24|prism)\nSee 'cashout-sandbox sign --help'.\n"),
    ] as [([String], String)])
    func refusesWhatItCannotSign(arguments: [String], error: String) throws {
        let (status, out, err) = try RunningBinary.run(arguments)
        #expect(status == 2 && out.isEmpty)
        #expect(err == error)
    }

    /// The help says which API it signs for, and how to choose.
    @Test func theHelpNamesTheAPIs() throws {
        let (status, out, _) = try RunningBinary.run(["sign", "--help"])
        #expect(status == 0)
        #expect(out.hasPrefix("Usage: cashout-sandbox sign [--api d24|prism] [--secret SECRET]\n"))
        #expect(out.contains("--api d24|prism        The API to sign for: d24 (default) or prism,\n"))
        #expect(out.contains("Mannco\nsigns no bodies"))
    }

    @Test func refusesTwoBodies() throws {
        let (status, _, err) = try RunningBinary.run(["sign", "{}", "{}"])
        #expect(status == 2)
        #expect(err.hasPrefix("error: sign takes one BODY argument; quote it"))
    }
}
