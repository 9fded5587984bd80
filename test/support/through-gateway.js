// Jest's "through the gateway" project: createTestApp puts a gateway in front of each instance.
process.env.FACILITY_OPS_TEST_THROUGH_GATEWAY = '1';
