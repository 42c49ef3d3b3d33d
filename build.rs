//! Records the commit the binary is built from (`pbrain-tengen --version`): `TENGEN_COMMIT` from the environment
//! when set (a release build from a source archive), else `git rev-parse`, else "unknown"; a `+` marks a work
//! tree with changes to tracked files.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=TENGEN_COMMIT");
    let commit = std::env::var("TENGEN_COMMIT").ok().filter(|c| !c.is_empty()).or_else(|| {
        // Rebuilt when HEAD moves or the index changes (a commit, a checkout, git add).
        for path in ["HEAD", "index", "packed-refs"] {
            if let Some(p) = git(&["rev-parse", "--git-path", path]) {
                println!("cargo:rerun-if-changed={p}");
            }
        }
        if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"])
            && let Some(p) = git(&["rev-parse", "--git-path", &head_ref])
        {
            println!("cargo:rerun-if-changed={p}");
        }
        let hash = git(&["rev-parse", "--short=12", "HEAD"])?;
        let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
        Some(if dirty { format!("{hash}+") } else { hash })
    });
    println!("cargo:rustc-env=TENGEN_COMMIT={}", commit.unwrap_or_else(|| "unknown".to_string()));
}
