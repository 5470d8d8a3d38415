#!/usr/bin/env python3
"""Regenerates PrismAPITests' fixtures from Sources/Dialects/Prism/Protos with grpcio-tools'
protoc (pip install grpcio-tools); run from anywhere, then commit the changed files:

  python3 Tests/PrismAPITests/Fixtures/regenerate.py

prism.pb: the FileDescriptorSet protoc compiles from the four .proto files (no source info, no
imports beyond them), which PrismDescriptorTests compares with each ProtoFile.descriptorBytes.
create-request.bin: create-request.json as protobuf's own Python runtime encodes a
types.PayoutServiceCreateRequest, which the round-trip test compares with the sandbox's bytes.
"""
import os
import sys

from grpc_tools import protoc
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOS = os.path.join(HERE, "..", "..", "..", "Sources", "Dialects", "Prism", "Protos")
FILES = ["services.proto", "payouts.proto", "payment.proto", "payment_methods.proto"]

descriptor_set = os.path.join(HERE, "prism.pb")
if protoc.main(["protoc", f"-I{PROTOS}", f"--descriptor_set_out={descriptor_set}"] + FILES) != 0:
    sys.exit("protoc failed")

files = descriptor_pb2.FileDescriptorSet()
with open(descriptor_set, "rb") as handle:
    files.ParseFromString(handle.read())
pool = descriptor_pool.DescriptorPool()
for file in files.file:
    pool.Add(file)
request_type = message_factory.GetMessageClass(pool.FindMessageTypeByName("types.PayoutServiceCreateRequest"))
with open(os.path.join(HERE, "create-request.json"), encoding="utf-8") as handle:
    request = json_format.Parse(handle.read(), request_type())
with open(os.path.join(HERE, "create-request.bin"), "wb") as handle:
    handle.write(request.SerializeToString(deterministic=True))
print("wrote prism.pb and create-request.bin")
