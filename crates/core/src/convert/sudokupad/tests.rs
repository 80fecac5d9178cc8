use super::*;
use crate::convert::links;
use crate::finding::Severity;
use crate::format::parse;

// SakanaAI/Sudoku-Bench's README ("Parity Fish" by Marty Sears).
const PARITY_FISH: &str = "https://sudokupad.app/sclN4SwJgXA5AzgHjAtgfQLIEMBOAXAngZQFMsZkBWADgAYBjANgDMwAjV9ATmYeasIHYAjOkID2VACziGVAExhxNKABpEhbOjDp1EYDAD2AV0w1C0fAbB6A1gYAEGK4Uy2AbjNlkAdLM8zxAWhoaBjJ0CjpldANsAAs9TGgMHFxbIhJlTAMAG0IYaAA5eMR0LNsYC2s7TJyYW3QAB3qs3ABuWwYQLNLYwlsAc0xwWwB3EFjbHtswED6x2oF/djK9CZitKZm5qb0AOwAdKGxbTEJ64iOQHbqdlMw9YaVbGj0sg0Qdx/QdsFtizEcfgBmOCA2zMPRwTx7HYAFWGKxMXVqGgAVugTDsjiVdn06sdCD8spdeogDDAjs9MehLrZdr1CC5CFdprMsd9aTtenowD8WWMobD4U9CEinrtOTRsASwSl0CMYmNepYKbt1DTKTBCDRoiBGRtWTABXCESKsrVKRKpT9mLKwVl0VZtiqqTS+dhasMYk4uZzbCBapYDMwcqsuT1MJ5lPpXtgQLtoBQyOJAXR2AI+DJ2Hw6DIyAIKIDxAIZIW+BR2GQ6EWKxQS3Q+JXy4C+OIZMXmwJxHQyOwKGXK+xWwIU2na83xGRCzJBI32MpmLNin1TFAYthsPU8gB6LcgTwgRB9IyeZ6ILc7QEgADy2HE+U8KLOfXni/Qy709XRY1wEAESmw0AAApYN+tgAGL+jEUAAL5KCYEAANoIUoKGoShAC6SjIWhqGYdhOFKHhBEYVhxGEaRxFEZRFEEVRtGYSciFIVQShUHhLECOxSgyHhf5sVhf6cQJ3F4TIrGiUoQkIWJPF4QhLGAlx4hcWQvFKIpwnKcJqlYWJGnSUoWkGapcksXQXF8FxFBqeZwmWcJ1m6UotkGfZBnWXJgLiVhXlSV5PFYeI3kIUFUlBQFCFkMFUVSVFslYQhXn6V5RleTpIXqXhQVGUF6VRfpUVGVFJkJV5LleW5XmORlLlBW5QXVVFLlRW5UUeQldDBZ1UmdRFfDBf1Un9RFFDBaNUmjfFSGdfpnVGZ16X9fp/VGf16Wjfpo1GaNJXTc5eGdW5nXVf1Ln9W5/XVaNLmjW5o0eZheiIcAkqIYCnhtZhwwQFQniFkoMQ/X9QWxL+vijVK0DKDQEAAMQsQk2BwTIcNgXBAhw1QsEvQBIUfUojnfb9/2A8TIOAwI4P/iu0OY0oiPI6j6OY9jr2RfjhNAyTXPk2DMgQzTcF0wzNAo7DaM0Bj8Os7j4j40JRPAwDPP/hTVOQ1AtPw/TEBI6LTOSyzSg44hk0fV9Kuk0roOU/z1NQ0L2si2LEtS1jxts/1v06Yr3Nk6rfMCw7MNO7rjPi8z0se7jfHm0ovtBVb/02+rgshwjYf6xHhtRybCF0Pj9kJ8r/sp3bGtaxnesu5H7t5wXMUW/7Se87bQea47Vfh67Rt5xQHNN0rLcB239sd+nOvVwbbsy4hfD4z7lsq2X7eV5P3e17PCF/u9i/N8vavl2nwuZzXOd157SheHvQ8H4HY9r870+92zYkN4PfvW4fq+d+vWc97nNm3sRLxyXqXb+D9f5P2zjPaOiE/xyxvp/ZOECK5QNPs/QBuNfJx19l5JOXk0EhzRtAi+2DC4f3wVzQhx8I6kK3jJXB1CS5/RocHJm9C4EIX7nFShLDARsPHhwjBWDTZKHnkgqhxNBFaxISIrG6FoJAA";
const PARITY_FISH_SOLUTION: &str =
    "854369172976251834123478956419582367568937421237146598785694213691823745342715689";

// SakanaAI/Sudoku-Bench ("Introduction to Counting Circles" by Michael Lefkowitz, 4×4).
const COUNTING_CIRCLES: &str = "https://sudokupad.app/sclN4SwJgXA5AzgHjAtgfQLIgMYAsCGBTAGwBk8AzAawHsB3EAFwC9k8B2ADhwBYWAjDARjABOAAwiAbJ1IBmIWx54ArP1L9F00qXEZpUADQYcEANrAAbtDr0CeCAAIAkgDs6AJ0pgArhiuUnduko7AGFKTxcQJwBzEJBXDBsYKABfPXNoHE86LEpXe3RsfAI7EgoaegYUtIsoV09E+wBlAFUAEQB5AGlmgB0nAFo7ADEQAmLsvDso13A7WmyArEmwECj6GDt+fs47GCDsnDo7JyCVtaPXPAAHPEONyLscO3dqPTsMSgJPRCc33LseJQ4AA6Pp9YLtZoAOQAKg4oQBxEIOABKwSIAFFGn0AIJOACedjO9DsDyeGDiCUmkRWhjoeA2eDgOB8BEJOWodkQOAJ70piXefjoOAeByOxLowLsOI2PLsTJwiCuNjeIFIizwl1JsrsACZSf4eYSKfEVRqtTgtQrWYS6NQgrr7v4TVSnRq7FdPAwGDZgVV0rBPlkQH57NJOLr+PxdZxw/xpLrddJ+JwUgBdAwwCCKEQGWzGYx6IsZwvFvSlvQlouVjOXEwF3MiEu5/gl/h6Jvl9utkvGXO65t6aRtvQDrtDtO93UdkvT1vl6Qzhd6Hvl4zTsfrifLzeL4eTvSeEzAGBuSjkWxQE5OPD6HlRGwQXM+EzSYGKDvvjPUJ/AtjTrBf3/PRsggds8joAxdQgABiIYDH4WCRFSE8zwvaBr1vPR70fZ86BMXV30/RRvyAgCyJAwDwIgSCMGguCEKQlDT3cdCrz8LCcNsPDXyIt8SL0H8RD/cjhOA0DqNo+j4IEJi0hY89L0wu9olwgx8OMfg+K/QSKMAsTpwkvQIKg2CZMQmDkPktClI4lSH249STC0j9CIEoSRL0fTPKMky6LMxjLOYmyMLs7DVMcl9jH4lcdI84DvPEqjjJo0yGNkoLrNY2yb3stSopc2L3L0ijfNS/z0osqzUOy0LcvChynycvsiOE4qDK80rkr86TAuqhS2OUhr8o0tqitIjrEsM7ryt6jLkLTZIgA";
const COUNTING_CIRCLES_SOLUTION: &str = "3421124341322314";

// Rangsk's test puzzle "Black Kropki X" through SudokuPad's own f-puzzles converter.
const BLACK_KROPKI_X: &str = "https://sudokupad.app/sclN4SwJgXA5AZgDgVwF5IDYFMBMBDAbNgZgAYDMBjTIgDiIFZd0wYB2AIwEZdcBOd27Ij27YoAGgDmqAPatsqCAG0o2AHYAXEACdsGqVAC6osgGcItIkfSKFo23duGb9u4+cvRTt67ejvXjz6+AT5+zvqGmlYK0RZEjhbs8aKYjuyicR5piZnJjpjpeaLZCvkpjgoWBEkALEm0qaJVObU59R75TSWiLV315Ra4ScxJVA2DOcM5o+2i412TXaPlBAUeK8UrKR7Vqwo7xTtbCrS7J8UnZR4KK50rPStte42OOz07jyedJz0nfVcrcxWCxW0yecx2Cx2oJOcxOCxOSyuuF2yOKyKOzF2mOKmKOVF2+OK+Mu0WRnWRPWRj0xnUxPUxj3xnXxPXxf1Js0cyIWyNBmLmmIWmNB+Lm+IW+KWhjI2EUwAAbtANGoMBAAAQAIVQ2DIAGs1QBpTRSOC6kBqgAaUAAvqIFdBsAg1AALKSadUAMWkmhAqjVAHU3WoALaqFQ2u2KqCaBAYUxqgBybtDqDVAGUEGApLqEGqY3G1aowGrWFIXWrQyAVGqwL7xFIVHJjGqyA21Ngq2r2ABabiF5sAd3QqFQADoADoqSdanX6rNqZtV2sytToQt5nQgKRqqQwLsQTBqzsutetlQqdBkVfFsjD1DGUdqgCCI7VcCkxmMIFYGBL2r1NZls22CRGq4ggPK6AqBOU4qAAMiAagqmuBogCO6CaC2qAIOgzbGK6A5qiearGAgwY7nuxG1uBC47tWxFLiAK6MDWdYNnIo42oYUhymQ7AQAAxBYFCCcJaiKJgo4XBEEBqKIA4QEQo4rM6inKaIq7QBGwB8aJRiYHpV4SVJnKiO6ckKUpKlqSsmlQNpulCfphnidcJlbOZ8k2aIqlWRpVj2baOn8U5Imha5tAmS0nmWepvnqXZDkhcJBnhYouAmdMMXefFtkBUlhmpWJijMO5MkWTl3mJUFjkpS5JUmW02V+bl/laTVyXOWlChUCZTTNXFVX5R1hX1T1UXlV5LVDe1dq1V1xUKMiGVNbJU2DX51VzZ1YWLfsUmTbF1mbcN22jd1AIHWZa1HT5M2BWdoVFUYrlpKVq0VdNJ2zcF52LWkSkfetx0Jadv1PWNkW/IdlXfQ94N1d1OyAzDX2gz9827S9ihnFdA0g3lGM7c9RkKMKeM3bD6Pw5jJOuTsK2oxt1MFRDSOZUzBNtTTxNjWkvVA7drVbQjC3Y8cJmTPjd1ww5qUekYIUK6TK2iN2KOiDApiYPisWYCc8X69dMBtcwNXy4rgnK65qvcFdWsHrralG4bJzuibmlm3NFuOdbijq1F9va07Sku87bsQB7ViYNw1qGPICg6RABDVBqGoAKLIi6B7yXA1gWNwjjcAU+g1cnqcZ1nqn5AOecxLsxeF6XhiyonZB6dnNd10to74gHRwZdwfdKUQlBEOPE+TxP7BLGXTmd7n1gZfidsD6OQ+iHbo/hHPFgL7X1j990veOAHo9Txf08suvs+l0AA==";

// Rangsk's test puzzle "Boxes" (by clover!) through SudokuPad's own f-puzzles converter.
const BOXES: &str = "https://sudokupad.app/sclN4SwJgXA5AZgDgVwF5IDYFMwDYCcBDAvLAdmJwEYBmHGABiwCZ0AjWgVjq1tr1tIagAaAMYBnCG1oj0EANqzBipYoC6ghcqVqNmwdt2r1BvUYP6zp3eatqATjPmyptbVPKvBDbeUEv1P939PbQZfEMFA2VCvbSdBSg8AFg82b3i05KDU9VCEnMFMqMFU2KksD2IPAA408qDKoJr8uqKGoprYyjD1Lsiur3VE7tkhyKGB2TZhqcipmPVZLrzFgu0u7JH0wdXtjanlqcKpkoWulq62rqbNlqG2oeuplqm2qY6FrGHPyM+J4mH/pF/hMqsNQZFQfN5J9lp9Cp8Nv9lv9Cv8NqDlqDCqCTtDBC1Pm1Ptd/i1/m1/tdQS1QW1QR01MI8HJgAA3aAAFxAHIwEAABAAhAD2AA90KIoABfQRs6B4BAcgAWQts/OEqCFrPQtgAhFKZeyoLYEBhxHyAMocvAAOzAeFsYD5ogQYCFAGsEHzjaa+Xg4HBUABPAB0fIAOtaIwAREAAc25oj5IGtvr5TNj6D5AFs8IG+dahRyveg4Og8EWbY6swhREXnVm+RyhY3FZnWXhUAhM8mwCAmRzMHyABQgGB8uC2TXgTAASlDEejcYTSZTeD5AHdFdzM8IQLZ1Znq7Xff6y7YnUKs+hN9ruymlZmYEKEOfhOhUKhE87bJOELbk7GLY7nuB6hvqwB/iAACOXYQBygj1hA5A+G+chFBMuRrMEajssh0oQda0GwfBiHkEMqHyKEGyhOc+IqDhSGJPhkEwTIJEIFmSH/BRkx0eoCLaJ85QMeQxDMYRrFwQhHEQAwUg8XMgnBPx6QMXJ4lEWx0mceQoQ8Si2hYvRgi4QwGmSexOl6Q4mx+Js7giWZMoscR0hoaEbShNcFxYR05muQp0wREpdnfPR/laYhDAoTZLxKRSxTaKSSWCJUankBFUlRdZaEBGkEw+MsoR9MFalmWoQossIDAQAAxAAYiI5B1fJHJyEsagwOIZGCKq8HrhAtDBv8iqDcNggDtAlCAJAEiQRmw4HVXVjXCM1tWte1fFdYxvVSQNQ0jWN/yTVAiTTWwEZYItNUNU1LUiG1shCZ13VDH1gj7eNo0HRNMhQGw01YBGxDXctd3rQ9cgwi9O3vZ9h0/SdWDTcQEZVKDt2rfdwiPT4mTbT1cNHYI33jSd5DTQw83TTgGMrWtG28U0BNvXtxOk8df0U1T1oA7TkoqJKQA==";

/// A link's import, which must succeed and read back without errors.
fn imported(link: &str) -> Imported {
    let imported = links::import(link).unwrap_or_else(|e| panic!("{e}"));
    let errors: Vec<String> = parse(&imported.text)
        .problems
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{}", imported.text);
    imported
}

#[test]
fn zipped_json_reads_back_with_its_keys_colours_and_empty_items() {
    let zipped = "{ce:[[,{v:5}],[,]],ca:[{v:'title: It\\'s',c1:#0,c2:CFCFCF}],t:t,r:f,l:[{wp:[[0.5,0.5],[1.5,1.5]],th:-8}]}";
    let value = unzip(zipped).unwrap();
    assert_eq!(
        value,
        json!({
            "cells": [[{}, {"value": 5}], [{}, {}]],
            "cages": [{"value": "title: It's", "borderColor": "#000000", "backgroundColor": "#CFCFCF"}],
            "title": true,
            "rounded": false,
            "lines": [{"wayPoints": [[0.5, 0.5], [1.5, 1.5]], "thickness": -8}],
        })
    );
    assert_eq!(
        read_puzzle("{\"cells\": []}").unwrap(),
        json!({"cells": []})
    );
    for (bad, says) in [
        ("{ce:[[,]", "character 9: expected ',' or ']'"),
        ("{t:'open", "a string is not closed"),
        ("{a b}", "expected ':'"),
        ("{}x", "more after the puzzle's end"),
    ] {
        let error = unzip(bad).unwrap_err();
        assert!(error.contains(says), "{bad}: {error}");
    }
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(unzip(&deep).unwrap_err().contains("nested too deeply"));
}

#[test]
fn a_converted_killer_keeps_its_cages_metadata_and_circles() {
    let imported = imported(BOXES);
    let text = &imported.text;
    assert!(
        text.starts_with(
            "# title: Boxes\n# author: clover!\n# rules: Standard sudoku rules apply."
        ),
        "{text}"
    );
    assert!(text.contains("\ncage 11: C3 C4 D3\n"), "{text}");
    assert!(text.contains("\n# sudokupad: {\"overlays\":["), "{text}");
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| w.starts_with("kept as a comment: overlays")),
        "{:?}",
        imported.warnings
    );
}

#[test]
fn global_rules_a_metadata_object_and_metadata_cages_are_read() {
    let kropki = imported(BLACK_KROPKI_X);
    assert!(
        kropki.text.contains("\nnegative: black\n"),
        "{}",
        kropki.text
    );
    assert!(
        kropki
            .text
            .starts_with("# title: Black Kropki X\n# author: Florian Wortmann\n"),
        "{}",
        kropki.text
    );
    let fish = imported(PARITY_FISH);
    assert!(
        fish.text
            .starts_with("# title: Parity Fish\n# author: Marty Sears\n"),
        "{}",
        fish.text
    );
    assert!(
        fish.text
            .contains(&format!("# solution: {PARITY_FISH_SOLUTION}\n")),
        "{}",
        fish.text
    );
    assert!(
        fish.text.contains("# sudokupad: {\"overlays\":["),
        "{}",
        fish.text
    );
    // Keys of the metadata object with no place in the file are kept too.
    assert!(
        fish.text.contains("# sudokupad: {\"metadata\":{"),
        "{}",
        fish.text
    );
    let circles = imported(COUNTING_CIRCLES);
    assert!(
        circles
            .text
            .starts_with("# title: Introduction to Counting Circles\n"),
        "{}",
        circles.text
    );
    assert!(
        circles
            .text
            .contains(&format!("# solution: {COUNTING_CIRCLES_SOLUTION}\n")),
        "{}",
        circles.text
    );
    let document = parse(&circles.text);
    assert_eq!(document.puzzles[0].size.side(), 4);
}

#[test]
fn a_puzzle_that_is_no_sudoku_grid_is_an_error_that_says_where() {
    let cases = [
        (
            json!({"cells": [[{}, {}], [{}]]}),
            "cells: a grid of 2 rows that is not 2×2",
        ),
        (
            json!({"cells": vec![vec![json!({}); 17]; 17]}),
            "cells: 17×17 is no grid size",
        ),
        (json!({"regions": []}), "cells: missing"),
        (
            json!({"cells": vec![vec![json!({}); 4]; 4], "cages": [{"unique": true, "cells": [[0, 0], [4, 1]]}]}),
            "cages[0].cells[1]: [4,1] is no cell of the 4×4 grid",
        ),
        (
            json!({"cells": [[{"value": "x"}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]]}),
            "cells[0][0].value: \"x\" is no digit",
        ),
    ];
    for (puzzle, says) in cases {
        let error = import_puzzle(&puzzle).unwrap_err();
        assert!(error.contains(says), "{puzzle}: {error}");
    }
}

#[test]
fn regions_that_are_not_the_boxes_make_a_jigsaw() {
    // A 4×4 whose regions are its rows: a region the reader checks.
    let regions: Vec<Value> = (0..4)
        .map(|r| json!((0..4).map(|c| [r, c]).collect::<Vec<_>>()))
        .collect();
    let puzzle = json!({"cells": vec![vec![json!({}); 4]; 4], "regions": regions});
    let text = import_puzzle(&puzzle).unwrap().text;
    assert!(text.contains("regions:\n"), "{text}");
    // The boxes in another order are the boxes.
    let boxes: Vec<Value> = [[2, 2], [0, 0], [2, 0], [0, 2]]
        .iter()
        .map(|[r, c]| json!([[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]]))
        .collect();
    let puzzle = json!({"cells": vec![vec![json!({}); 4]; 4], "regions": boxes});
    let text = import_puzzle(&puzzle).unwrap().text;
    assert!(!text.contains("regions:"), "{text}");
}
