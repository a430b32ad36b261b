"""Sum pytest's JUnit XML reports into one closing line: "total: N passed, N failed, N skipped"."""

import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        print(f"{path}: unreadable report ({exc})")
        failed += 1
        continue
    for suite in root.iter("testsuite"):
        tests = int(suite.get("tests", 0))
        bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skip = int(suite.get("skipped", 0))
        passed += tests - bad - skip
        failed += bad
        skipped += skip
print(f"total: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
