//! Saves survive crashes and damage: every save keeps the one before as
//! `<name>.bak`; a damaged save is moved aside and its backup loaded; a
//! save from a newer version is reported and left alone; and a writer
//! killed with SIGKILL at random moments, 200 times, never leaves a save
//! that cannot be loaded.
#![allow(clippy::unwrap_used)]

#[cfg(feature = "store")]
mod saves {
    use std::fs;
    use std::path::Path;
    use std::process::Command;
    use std::time::Duration;

    use dekadoku::store::{LoadError, SaveMeta, read_save, read_save_or_backup, write_save};
    use serde::{Deserialize, Serialize};

    /// A payload whose parts must agree: `n` and `body`, which is `n`
    /// repeated, some kilobytes long (so a write takes a moment).
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Payload {
        n: u64,
        body: Vec<u64>,
    }

    impl Payload {
        fn new(n: u64) -> Payload {
            Payload {
                n,
                body: vec![n; 2_000 + (n % 7) as usize * 3_000],
            }
        }

        fn is_whole(&self) -> bool {
            self.body.len() == Payload::new(self.n).body.len()
                && self.body.iter().all(|&x| x == self.n)
        }
    }

    fn meta(n: u64) -> SaveMeta {
        SaveMeta {
            size: "9x9".into(),
            level: None,
            filled: 0,
            cells: 81,
            elapsed_secs: n,
            saved_at: n,
            solved: false,
            title: None,
        }
    }

    /// A fresh folder, removed with everything in it when dropped.
    fn scratch(tag: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("dekadoku-survive-{tag}-"))
            .tempdir()
            .unwrap()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn each_save_keeps_the_one_before_and_a_damaged_save_falls_back_to_it() {
        let tmp = scratch("backup");
        let dir = tmp.path();
        let p = dir.join("autosave.json");
        write_save(&p, "game", 1, &meta(1), &Payload::new(1)).unwrap();
        write_save(&p, "game", 1, &meta(2), &Payload::new(2)).unwrap();
        assert_eq!(names(dir), ["autosave.json", "autosave.json.bak"]);
        let r = read_save_or_backup::<Payload>(&p, "game", 1).unwrap();
        assert_eq!((r.payload.n, r.from_backup.is_none()), (2, true));
        for (what, bytes) in [
            ("truncated", None),
            ("empty", Some(Vec::new())),
            ("garbage", Some(b"\x00\xffnot json at all".to_vec())),
        ] {
            let bytes = bytes.unwrap_or_else(|| {
                let whole = fs::read(&p).unwrap();
                whole[..whole.len() / 2].to_vec()
            });
            fs::write(&p, bytes).unwrap();
            let r = read_save_or_backup::<Payload>(&p, "game", 1).unwrap();
            assert_eq!(r.payload, Payload::new(1), "{what}");
            // The damaged file is reported with its path and kept aside.
            let Some(LoadError::Corrupt {
                path,
                kept_as: Some(kept),
                ..
            }) = r.from_backup
            else {
                panic!("{what}: {:?}", r.from_backup);
            };
            assert_eq!(path, p, "{what}");
            assert!(kept.exists() && !p.exists(), "{what}");
            // Saving again writes a new save; the backup is not overwritten
            // by the damaged file (it was moved away first).
            write_save(&p, "game", 1, &meta(2), &Payload::new(2)).unwrap();
            let bak = read_save_or_backup::<Payload>(&dir.join("autosave.json.bak"), "game", 1);
            assert!(bak.is_ok(), "{what}");
        }
        // A save from a newer version: reported, moved aside whole (never
        // overwritten), and the backup is used in its place.
        let bak_n = read_save::<Payload>(&dir.join("autosave.json.bak"), "game", 1)
            .unwrap()
            .1
            .n;
        let newer = br#"{"format":"dekadoku","kind":"game","version":99,"meta":{},"payload":{}}"#;
        fs::write(&p, newer).unwrap();
        let r = read_save_or_backup::<Payload>(&p, "game", 1).unwrap();
        let Some(LoadError::TooNew {
            version: 99,
            kept_as: Some(kept),
            ..
        }) = &r.from_backup
        else {
            panic!("{:?}", r.from_backup);
        };
        let e = r.from_backup.as_ref().unwrap();
        assert!(e.to_string().contains("autosave.json"), "{e}");
        assert_eq!(fs::read(kept).unwrap(), newer.to_vec());
        assert!(!p.exists());
        assert_eq!(r.payload.n, bak_n);
        // Writing the next save cannot touch the moved file.
        write_save(&p, "game", 1, &meta(3), &Payload::new(3)).unwrap();
        assert_eq!(fs::read(kept).unwrap(), newer.to_vec());
    }

    /// Not a test on its own: the writer the kill test starts in a child
    /// process (it does nothing without its environment variable). It
    /// continues from the save it finds and writes one save after another
    /// until it is killed.
    #[test]
    fn child_writer_process() {
        let Ok(dir) = std::env::var("DEKADOKU_SURVIVE_DIR") else {
            return;
        };
        let p = Path::new(&dir).join("autosave.json");
        let mut n = read_save_or_backup::<Payload>(&p, "game", 1).map_or(0, |r| r.payload.n);
        loop {
            n += 1;
            write_save(&p, "game", 1, &meta(n), &Payload::new(n)).unwrap();
        }
    }

    #[cfg(unix)]
    #[test]
    fn sigkill_in_the_middle_of_saving_200_times_never_loses_the_save() {
        let tmp = scratch("kill");
        let dir = tmp.path();
        let p = dir.join("autosave.json");
        let exe = std::env::current_exe().unwrap();
        let mut last = 0;
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for run in 0..200 {
            let mut child = Command::new(&exe)
                .args([
                    "--exact",
                    "saves::child_writer_process",
                    "--nocapture",
                    "--test-threads",
                    "1",
                ])
                .env("DEKADOKU_SURVIVE_DIR", dir)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            std::thread::sleep(Duration::from_micros(2_000 + rng % 20_000));
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            match read_save_or_backup::<Payload>(&p, "game", 1) {
                Ok(r) => {
                    assert!(r.payload.is_whole(), "run {run}: a torn save");
                    assert!(r.from_backup.is_none(), "run {run}: {:?}", r.from_backup);
                    assert!(r.payload.n >= last, "run {run}: went back");
                    last = r.payload.n;
                }
                // Killed before its first save ever finished.
                Err(LoadError::NotFound { .. }) if last == 0 => {}
                Err(e) => panic!("run {run}: {e}"),
            }
            let bak = dir.join("autosave.json.bak");
            if bak.exists() {
                let r = read_save_or_backup::<Payload>(&bak, "game", 1).unwrap();
                assert!(r.payload.is_whole(), "run {run}: a torn backup");
            }
        }
        assert!(last > 0, "no save was ever written");
        // Leftover temp files from the killed writers are the only litter,
        // and the start-up clean-up recognises every one of them.
        for name in names(dir) {
            assert!(
                name == "autosave.json" || name == "autosave.json.bak" || name.starts_with('.'),
                "{name}"
            );
        }
        dekadoku::store::remove_stale_temps(dir, Duration::ZERO);
        assert_eq!(names(dir), ["autosave.json", "autosave.json.bak"]);
        println!("200 kills: the last save held {last}");
    }
}
