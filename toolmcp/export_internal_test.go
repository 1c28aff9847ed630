package toolmcp

// RaceEnabled is raceEnabled, for the tests of package toolmcp_test.
const RaceEnabled = raceEnabled
