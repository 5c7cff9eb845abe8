package linear

// RaceEnabled is raceEnabled for the tests of package linear_test.
const RaceEnabled = raceEnabled
