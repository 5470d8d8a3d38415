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

    @Test func refusesTwoBodies() throws {
        let (status, _, err) = try RunningBinary.run(["sign", "{}", "{}"])
        #expect(status == 2)
        #expect(err.hasPrefix("error: sign takes one BODY argument; quote it"))
    }
}
