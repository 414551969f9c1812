//! The behaviour every [`PlayerStore`] backend must have, as one suite a
//! backend's tests run on a fresh store of their kind.

use super::*;

fn key(n: u32) -> PlayerKey {
    PlayerKey {
        fingerprint: format!("SHA256:test-key-{n}"),
        algorithm: "ssh-ed25519".to_string(),
    }
}

fn game(tag: &str, filled: u32) -> SavedGame {
    SavedGame {
        meta: SaveMeta {
            size: "9x9".to_string(),
            level: Some("hard".to_string()),
            filled,
            cells: 81,
            elapsed_secs: 42,
            saved_at: 1_800_000_000,
            solved: false,
            title: Some(tag.to_string()),
        },
        envelope: format!("{{\"format\":\"dekadoku\",\"tag\":\"{tag}\"}}").into_bytes(),
    }
}

/// Runs every check on stores made by `fresh` (each check gets its own).
pub(crate) fn suite(fresh: &dyn Fn() -> Box<dyn PlayerStore>) {
    players_are_their_keys(&*fresh());
    names_are_checked_and_unique(&*fresh());
    autosaves_are_each_players_own(&*fresh());
    named_saves(&*fresh());
    save_limits(&*fresh());
    settings_and_stats(&*fresh());
    daily_board(&*fresh());
}

fn players_are_their_keys(s: &dyn PlayerStore) {
    let a = s.player(&key(1), 100).unwrap();
    let b = s.player(&key(2), 100).unwrap();
    assert_ne!(a.id, b.id);
    assert_eq!(a.name, None);
    // The same key is the same player, however often they come back.
    assert_eq!(s.player(&key(1), 200).unwrap(), a);
    assert_eq!(s.player(&key(2), 300).unwrap(), b);
}

fn names_are_checked_and_unique(s: &dyn PlayerStore) {
    let a = s.player(&key(1), 1).unwrap();
    let b = s.player(&key(2), 1).unwrap();
    s.set_name(a.id, "  Ada L. ").unwrap();
    assert_eq!(
        s.player(&key(1), 2).unwrap().name.as_deref(),
        Some("Ada L.")
    );
    // Taken, whatever the case; the owner may set it again.
    assert!(matches!(
        s.set_name(b.id, "ada l."),
        Err(DbError::BadName { .. })
    ));
    s.set_name(a.id, "ADA L.").unwrap();
    for bad in [
        "",
        "   ",
        "a\u{1b}[2J",
        "x; DROP TABLE players",
        &"n".repeat(25),
    ] {
        assert!(
            matches!(s.set_name(b.id, bad), Err(DbError::BadName { .. })),
            "{bad:?}"
        );
    }
    assert_eq!(s.player(&key(2), 3).unwrap().name, None);
    s.set_name(b.id, &"n".repeat(24)).unwrap();
    // A player who renames frees the old name.
    s.set_name(a.id, "Grace").unwrap();
    s.set_name(b.id, "ada l.").unwrap();
    assert_eq!(
        s.player(&key(2), 4).unwrap().name.as_deref(),
        Some("ada l.")
    );
}

fn autosaves_are_each_players_own(s: &dyn PlayerStore) {
    let a = s.player(&key(1), 1).unwrap().id;
    let b = s.player(&key(2), 1).unwrap().id;
    assert_eq!(s.autosave(a).unwrap(), None);
    s.put_autosave(a, &game("a1", 30)).unwrap();
    assert_eq!(s.autosave(a).unwrap(), Some(game("a1", 30)));
    assert_eq!(s.autosave(b).unwrap(), None);
    s.put_autosave(a, &game("a2", 31)).unwrap();
    s.put_autosave(b, &game("b1", 40)).unwrap();
    assert_eq!(s.autosave(a).unwrap(), Some(game("a2", 31)));
    assert_eq!(s.autosave(b).unwrap(), Some(game("b1", 40)));
    s.clear_autosave(a).unwrap();
    assert_eq!(s.autosave(a).unwrap(), None);
    assert_eq!(s.autosave(b).unwrap(), Some(game("b1", 40)));
}

fn named_saves(s: &dyn PlayerStore) {
    let a = s.player(&key(1), 1).unwrap().id;
    let b = s.player(&key(2), 1).unwrap().id;
    assert_eq!(
        s.put_save(a, "morning", &game("m", 1), false).unwrap(),
        PutSave::Written
    );
    assert_eq!(
        s.put_save(a, "evening", &game("e", 2), false).unwrap(),
        PutSave::Written
    );
    // Not over an existing one unless asked.
    assert_eq!(
        s.put_save(a, "morning", &game("m2", 3), false).unwrap(),
        PutSave::Exists
    );
    assert_eq!(s.save(a, "morning").unwrap(), Some(game("m", 1)));
    assert_eq!(
        s.put_save(a, "morning", &game("m2", 3), true).unwrap(),
        PutSave::Written
    );
    assert_eq!(s.save(a, "morning").unwrap(), Some(game("m2", 3)));
    let names: Vec<String> = s.saves(a).unwrap().into_iter().map(|r| r.name).collect();
    assert_eq!(names, ["evening", "morning"]);
    assert_eq!(s.saves(a).unwrap()[1].meta, game("m2", 3).meta);
    // Names are made as the local game makes file names: a path is a name.
    s.put_save(a, "../../etc/passwd", &game("p", 4), false)
        .unwrap();
    assert!(s.saves(a).unwrap().iter().any(|r| r.name == "etc-passwd"));
    assert!(matches!(
        s.put_save(a, "///", &game("x", 5), false),
        Err(DbError::BadSaveName { .. })
    ));
    // Another player sees none of them, and has their own of the same name.
    assert!(s.saves(b).unwrap().is_empty());
    assert_eq!(s.save(b, "morning").unwrap(), None);
    assert!(!s.delete_save(b, "morning").unwrap());
    s.put_save(b, "morning", &game("bm", 6), false).unwrap();
    assert_eq!(s.save(a, "morning").unwrap(), Some(game("m2", 3)));
    assert!(s.delete_save(a, "morning").unwrap());
    assert!(!s.delete_save(a, "morning").unwrap());
    assert_eq!(s.save(a, "morning").unwrap(), None);
    assert_eq!(s.save(b, "morning").unwrap(), Some(game("bm", 6)));
}

fn save_limits(s: &dyn PlayerStore) {
    let a = s.player(&key(1), 1).unwrap().id;
    let max = StoreLimits::default().max_saves;
    for i in 0..max {
        s.put_save(a, &format!("s{i}"), &game("g", 1), false)
            .unwrap();
    }
    assert!(matches!(
        s.put_save(a, "one-more", &game("g", 1), false),
        Err(DbError::TooManySaves { .. })
    ));
    // Replacing one is not one more.
    assert_eq!(
        s.put_save(a, "s0", &game("g2", 2), true).unwrap(),
        PutSave::Written
    );
    assert_eq!(s.saves(a).unwrap().len(), max);
    let huge = SavedGame {
        envelope: vec![b' '; StoreLimits::default().max_bytes + 1],
        ..game("h", 1)
    };
    assert!(matches!(
        s.put_autosave(a, &huge),
        Err(DbError::TooLarge { .. })
    ));
    assert!(matches!(
        s.put_save(a, "s1", &huge, true),
        Err(DbError::TooLarge { .. })
    ));
    assert!(matches!(
        s.put_stats(a, &huge.envelope),
        Err(DbError::TooLarge { .. })
    ));
    assert_eq!(s.save(a, "s1").unwrap(), Some(game("g", 1)));
}

fn settings_and_stats(s: &dyn PlayerStore) {
    let a = s.player(&key(1), 1).unwrap().id;
    let b = s.player(&key(2), 1).unwrap().id;
    assert_eq!(s.settings(a).unwrap(), None);
    let mine = Settings {
        theme: "high-contrast".to_string(),
        play_toml: "conflicts = \"cells\"\n".to_string(),
    };
    s.put_settings(a, &mine).unwrap();
    assert_eq!(s.settings(a).unwrap(), Some(mine.clone()));
    assert_eq!(s.settings(b).unwrap(), None);
    let changed = Settings {
        theme: "dark".to_string(),
        ..mine
    };
    s.put_settings(a, &changed).unwrap();
    assert_eq!(s.settings(a).unwrap(), Some(changed));
    assert_eq!(s.stats(a).unwrap(), None);
    s.put_stats(a, b"{\"version\":2}").unwrap();
    s.put_stats(b, b"{\"version\":3}").unwrap();
    assert_eq!(
        s.stats(a).unwrap().as_deref(),
        Some(&b"{\"version\":2}"[..])
    );
    assert_eq!(
        s.stats(b).unwrap().as_deref(),
        Some(&b"{\"version\":3}"[..])
    );
}

fn daily_board(s: &dyn PlayerStore) {
    let ids: Vec<PlayerId> = (1..=4).map(|n| s.player(&key(n), 1).unwrap().id).collect();
    s.set_name(ids[0], "first").unwrap();
    let day = "2026-11-27";
    s.record_daily(day, ids[0], 300, 10).unwrap();
    s.record_daily(day, ids[1], 200, 11).unwrap();
    s.record_daily(day, ids[2], 300, 5).unwrap();
    s.record_daily("2026-11-26", ids[3], 50, 1).unwrap();
    // A slower solve later does not replace the best; a faster one does.
    s.record_daily(day, ids[1], 250, 20).unwrap();
    s.record_daily(day, ids[0], 280, 30).unwrap();
    let board = s.daily_board(day, 10).unwrap();
    let order: Vec<(PlayerId, u64)> = board.iter().map(|e| (e.player, e.secs)).collect();
    assert_eq!(order, [(ids[1], 200), (ids[0], 280), (ids[2], 300)]);
    assert_eq!(board[1].name.as_deref(), Some("first"));
    assert_eq!(s.daily_board(day, 2).unwrap().len(), 2);
    assert_eq!(s.daily_rank(day, ids[1]).unwrap(), Some((1, 3)));
    assert_eq!(s.daily_rank(day, ids[0]).unwrap(), Some((2, 3)));
    assert_eq!(s.daily_rank(day, ids[2]).unwrap(), Some((3, 3)));
    assert_eq!(s.daily_rank(day, ids[3]).unwrap(), None);
    // Equal times: who solved it first ranks first.
    s.record_daily(day, ids[3], 300, 1).unwrap();
    assert_eq!(s.daily_rank(day, ids[3]).unwrap(), Some((3, 4)));
    assert_eq!(s.daily_rank(day, ids[2]).unwrap(), Some((4, 4)));
    assert_eq!(s.daily_board("2026-11-26", 10).unwrap().len(), 1);
}
