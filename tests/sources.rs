//! The source stage on real footage (read in place from `../shared/real/`, never copied into
//! the project) and on every kind of bad input, made in a temporary folder at test time.
//! Each test says which file it reads and what it expects.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use opencv::core::{CV_8UC3, Mat, Size};
use opencv::prelude::*;
use opencv::videoio::{CAP_FFMPEG, VideoCapture};
use touchmove::source::{self, Frame, FrameProblem, Source, SourceError, SourceSpec, URL_TIMEOUT};

fn real(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real").join(rel)
}

fn open_real(rel: &str) -> Source {
    let path = real(rel);
    source::open(&SourceSpec::File(path.clone())).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Reads a source to its end: the frames, the problems, and checks that hold for every
/// source: indices 0, 1, 2, … with nothing skipped, times strictly increasing, BGR 8-bit.
fn read_all(src: Source) -> (Vec<Frame>, Vec<FrameProblem>) {
    let (mut frames, mut problems) = (Vec::new(), Vec::new());
    let mut last_t = f64::NEG_INFINITY;
    for (i, item) in src.enumerate() {
        let (index, t) = match &item {
            Ok(f) => (f.index, f.t),
            Err(p) => (p.index, p.t),
        };
        assert_eq!(index, i as u64, "indices count every frame, problems included");
        assert!(t > last_t, "frame {index}: time {t} after {last_t}");
        last_t = t;
        match item {
            Ok(f) => {
                assert_eq!(f.image.typ(), CV_8UC3, "frame {index} is BGR 8-bit");
                frames.push(f);
            }
            Err(p) => problems.push(p),
        }
    }
    (frames, problems)
}

fn assert_clip(rel: &str, size: (i32, i32), fps: f64, frames: u64, last_t: f64) {
    let src = open_real(rel);
    assert_eq!(src.frame_size(), Size::new(size.0, size.1), "{rel}");
    assert_eq!(src.fps(), Some(fps), "{rel}");
    assert_eq!(src.frame_count(), Some(frames), "{rel}");
    assert!(!src.is_live());
    let (got, problems) = read_all(src);
    assert!(problems.is_empty(), "{rel}: {problems:?}");
    assert_eq!(got.len() as u64, frames, "{rel}");
    assert!(got.iter().all(|f| f.image.size().unwrap() == Size::new(size.0, size.1)));
    assert!((got.last().unwrap().t - last_t).abs() < 1e-6, "{rel}: last frame at {}", got.last().unwrap().t);
}

#[test]
fn webcam_scholars_mate_is_334_frames_at_20_fps() {
    // play-chess-with-a-webcam/scholarsmate.avi: 640×480, 20 fps, 16.7 s = 334 frames (the
    // last one starts at 16.65 s), indexed AVI, nothing damaged.
    assert_clip("video/play-chess-with-a-webcam/scholarsmate.avi", (640, 480), 20.0, 334, 16.65);
}

#[test]
fn empty_board_is_52_frames() {
    // play-chess-with-a-webcam/emptyBoard001.avi: 640×480, 20 fps, 2.6 s = 52 frames.
    assert_clip("video/play-chess-with-a-webcam/emptyBoard001.avi", (640, 480), 20.0, 52, 2.55);
}

#[test]
fn cropped_scholars_mate_is_248_frames_at_24_fps() {
    // chess-testmedia/scholarsMate2019-11-18.avi: 612×612, 24 fps, 248 frames (10.33 s).
    assert_clip("video/chess-testmedia/scholarsMate2019-11-18.avi", (612, 612), 24.0, 248, 247.0 / 24.0);
}

#[test]
fn knightvision_clip_times_keep_going_where_the_container_stamps_zero() {
    // knightvision/sample_clip_3s.mp4: 1920×1080 H.264, 30 fps, 106 frames. OpenCV stamps its
    // last two frames 0 ms (they come out of the decoder's flush without a PTS); they get one
    // nominal interval each, so the last frame is at 105/30 = 3.5 s.
    assert_clip("video/knightvision/sample_clip_3s.mp4", (1920, 1080), 30.0, 106, 3.5);
}

#[test]
fn damaged_tk_file_is_read_to_the_end_with_its_cut_frame_reported() {
    // chess-testmedia/TK_scholarsmate7.avi: 404×404, 30 fps, no index (OpenCV counts 0
    // frames), 1393 video chunks; the file ends 7,740 bytes into the last one's 17,457.
    // Measured: OpenCV decodes all 1393, the last with FFmpeg's error concealment ("Error at
    // MB: 313") and says nothing; the chunk walk finds it. Expected: frames 0–1391 good,
    // frame 1392 (46.4 s) reported, carrying the concealed picture.
    let path = real("video/chess-testmedia/TK_scholarsmate7.avi");
    let opencv_count = VideoCapture::from_file(path.as_os_str(), CAP_FFMPEG)
        .and_then(|c| c.get(opencv::videoio::CAP_PROP_FRAME_COUNT))
        .unwrap();
    assert_eq!(opencv_count, 0.0, "OpenCV cannot count an AVI without index");

    let src = open_real("video/chess-testmedia/TK_scholarsmate7.avi");
    assert_eq!(
        (src.frame_size(), src.fps(), src.frame_count()),
        (Size::new(404, 404), Some(30.0), Some(1393))
    );
    assert!(src.to_string().contains("cut off in frame 1392"), "{src}");
    let started = Instant::now();
    let (frames, problems) = read_all(src);
    let elapsed = started.elapsed().as_secs_f64();
    eprintln!(
        "TK_scholarsmate7.avi: {} frames in {elapsed:.2} s ({:.0} fps)",
        frames.len() + problems.len(),
        1393.0 / elapsed
    );
    assert_eq!(frames.len(), 1392);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert_eq!(p.index, 1392);
    assert!((p.t - 46.4).abs() < 1e-6, "{}", p.t);
    assert!(p.what.contains("ends 7740 bytes into this frame's 17457"), "{}", p.what);
    assert_eq!(p.image.as_ref().map(|m| m.size().unwrap()), Some(Size::new(404, 404)));
    assert!((frames[1391].t - 1391.0 / 30.0).abs() < 1e-6);
}

#[test]
fn a_frame_that_does_not_decode_mid_file_is_reported_and_reading_goes_on() {
    // knightvision/sample_clip_3s.mp4 with its 51st packet in decode order (offset 1567217,
    // 1248 bytes, found with `ffprobe -show_entries packet=pos,size`) zeroed in a temp copy.
    // Measured: H.264 rejects the packet, `grab()` returns false at frame 48 of 106, and a
    // plain `while read()` loop stops there. Expected: 105 frames and frame 48 reported
    // between frames 47 and 49 in time.
    let mut bytes = std::fs::read(real("video/knightvision/sample_clip_3s.mp4")).unwrap();
    bytes[1567217..1567217 + 1248].fill(0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zeroed-packet.mp4");
    std::fs::write(&path, bytes).unwrap();

    let mut cap = VideoCapture::from_file(path.as_os_str(), CAP_FFMPEG).unwrap();
    let (mut image, mut plain_reads) = (Mat::default(), 0);
    while cap.read(&mut image).unwrap() {
        plain_reads += 1;
    }
    assert_eq!(plain_reads, 48, "OpenCV's read() stops at the bad packet");

    let src = source::open(&SourceSpec::File(path)).unwrap();
    let (frames, problems) = read_all(src);
    assert_eq!(frames.len(), 105);
    assert_eq!(problems.iter().map(|p| p.index).collect::<Vec<_>>(), [48]);
    let t = problems[0].t;
    assert!(frames[47].t < t && t < frames[48].t && frames[48].index == 49, "{t}");
    assert!((frames[48].t - 49.0 / 30.0).abs() < 1e-6, "later frames keep their own times");
}

#[test]
fn an_avi_cut_mid_frame_counts_what_is_there_and_reports_the_cut_frame() {
    // play-chess-with-a-webcam/scholarsmate.avi cut halfway through frame 200's data (payload
    // at 1478212, 6500 bytes, per ffprobe) in a temp copy. Its header still claims 334 frames.
    // Expected: 201 frames counted, frames 0–199 good, frame 200 reported.
    let bytes = std::fs::read(real("video/play-chess-with-a-webcam/scholarsmate.avi")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.avi");
    std::fs::write(&path, &bytes[..1478212 + 3250]).unwrap();
    let src = source::open(&SourceSpec::File(path)).unwrap();
    assert_eq!(src.frame_count(), Some(201));
    let (frames, problems) = read_all(src);
    assert_eq!(frames.len(), 200);
    assert_eq!(problems.iter().map(|p| p.index).collect::<Vec<_>>(), [200]);
    assert!(problems[0].what.contains("ends 3250 bytes into this frame's 6500"), "{}", problems[0].what);
}

#[test]
fn a_folder_of_webcam_stills_is_read_in_name_order_at_one_per_second() {
    // stills/play-chess-with-a-webcam/: chessBoard001–013.jpg and greendot.jpg (14 images of
    // different sizes; labels.json, LICENSE and the .json beside them are not images).
    let dir = real("stills/play-chess-with-a-webcam");
    let spec: SourceSpec = dir.to_str().unwrap().parse().unwrap();
    assert_eq!(spec, SourceSpec::Folder(dir.clone()));
    let src = source::open(&spec).unwrap();
    assert_eq!((src.frame_count(), src.fps(), src.frame_size()), (Some(14), Some(1.0), Size::new(1280, 960)));
    let (frames, problems) = read_all(src);
    assert!(problems.is_empty(), "{problems:?}");
    let sizes: Vec<(i32, i32)> =
        frames.iter().map(|f| f.image.size().map(|s| (s.width, s.height)).unwrap()).collect();
    assert_eq!(sizes[2], (640, 480), "chessBoard003.jpg");
    assert_eq!(sizes[8], (2673, 2495), "chessBoard009.jpg");
    assert_eq!(sizes[13], (14, 15), "greendot.jpg comes last");
    assert_eq!(frames.iter().map(|f| f.t).collect::<Vec<_>>(), (0..14).map(f64::from).collect::<Vec<_>>());
}

#[test]
fn a_still_that_does_not_decode_is_reported_in_its_place() {
    // Made here: a.png and c.png written by OpenCV, b.png text pretending to be an image.
    let dir = tempfile::tempdir().unwrap();
    let image = Mat::new_rows_cols_with_default(4, 6, CV_8UC3, opencv::core::Scalar::all(90.0)).unwrap();
    for name in ["a.png", "c.png"] {
        opencv::imgcodecs::imwrite(dir.path().join(name).to_str().unwrap(), &image, &Default::default())
            .unwrap();
    }
    std::fs::write(dir.path().join("b.png"), "not a png").unwrap();
    let (frames, problems) = read_all(source::open(&SourceSpec::Folder(dir.path().into())).unwrap());
    assert_eq!(frames.iter().map(|f| f.index).collect::<Vec<_>>(), [0, 2]);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].what.contains("b.png"), "{}", problems[0].what);
}

/// Opens `spec`, expecting it to fail; returns the message, checked to be one line that names
/// the input.
fn fails(spec: &SourceSpec, names: &str) -> (SourceError, String) {
    let err = match source::open(spec) {
        Ok(src) => panic!("{spec} opened: {src}"),
        Err(e) => e,
    };
    let msg = err.to_string();
    assert_eq!(msg.lines().count(), 1, "{msg}");
    assert!(msg.contains(names), "{msg} should name {names}");
    (err, msg)
}

#[test]
fn every_bad_file_fails_with_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);

    let missing = at("missing.avi");
    assert!(matches!(fails(&SourceSpec::File(missing.clone()), "missing.avi").0, SourceError::NotFound(_)));

    std::fs::write(at("zero.avi"), b"").unwrap();
    assert!(matches!(fails(&SourceSpec::File(at("zero.avi")), "zero.avi").0, SourceError::EmptyFile(_)));

    std::fs::write(at("notes.mp4"), "White: Alice\nBlack: Bob\n").unwrap();
    let (err, msg) = fails(&SourceSpec::File(at("notes.mp4")), "notes.mp4");
    assert!(matches!(err, SourceError::NotVideo { .. }) && msg.contains("it is text"), "{msg}");

    // The first 20 KB of knightvision/sample_clip_3s.mp4: its index (moov) comes first, so it
    // opens, but the first frame's data is cut off and no frame decodes.
    let head = &std::fs::read(real("video/knightvision/sample_clip_3s.mp4")).unwrap()[..20_000];
    std::fs::write(at("head.mp4"), head).unwrap();
    assert!(matches!(fails(&SourceSpec::File(at("head.mp4")), "head.mp4").0, SourceError::NoFrames { .. }));

    // The first 20 KB of play-chess-with-a-webcam/scholarsmate.avi: the file ends inside the
    // first frame (23,516 bytes), so there is no whole frame either.
    let head = &std::fs::read(real("video/play-chess-with-a-webcam/scholarsmate.avi")).unwrap()[..20_000];
    std::fs::write(at("head.avi"), head).unwrap();
    let (err, msg) = fails(&SourceSpec::File(at("head.avi")), "head.avi");
    assert!(matches!(err, SourceError::NoFrames { .. }) && msg.contains("into its first frame"), "{msg}");

    // An MP4 cut before its index: FFmpeg cannot open it; the head says what it was.
    let mut cut = std::fs::read(real("video/knightvision/sample_clip_3s.mp4")).unwrap();
    cut.truncate(40);
    std::fs::write(at("cut.mp4"), &cut).unwrap();
    let (_, msg) = fails(&SourceSpec::File(at("cut.mp4")), "cut.mp4");
    assert!(msg.contains("MP4/MOV file, so it is truncated or corrupt"), "{msg}");
}

#[test]
fn folders_without_usable_images_fail_with_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(fails(&SourceSpec::Folder(dir.path().into()), "").0, SourceError::NoImages(_)));
    std::fs::write(dir.path().join("labels.json"), "{}").unwrap();
    let (err, msg) = fails(&SourceSpec::Folder(dir.path().into()), &dir.path().display().to_string());
    assert!(matches!(err, SourceError::NoImages(_)), "{msg}");
    std::fs::write(dir.path().join("broken.jpg"), "no jpeg").unwrap();
    assert!(matches!(
        fails(&SourceSpec::Folder(dir.path().into()), "").0,
        SourceError::NoReadableImages { count: 1, .. }
    ));
    let missing = dir.path().join("gone");
    assert!(matches!(fails(&SourceSpec::Folder(missing), "gone").0, SourceError::NotFound(_)));
}

#[test]
fn a_missing_camera_fails_with_one_clear_line() {
    // These machines have no camera (nokhwa lists none); 97 is absent anywhere.
    let (err, msg) = fails(&SourceSpec::Camera(97), "camera 97");
    assert!(matches!(err, SourceError::NoCamera { index: 97, .. }), "{msg}");
    if nokhwa::query(nokhwa::utils::ApiBackend::Auto).unwrap_or_default().is_empty() {
        assert!(matches!(
            fails(&"camera:0".parse().unwrap(), "camera 0").0,
            SourceError::NoCamera { found: 0, .. }
        ));
    }
}

#[test]
fn an_unreachable_stream_fails_fast_with_one_clear_line() {
    // Nothing listens on port 1: refused at once.
    let started = Instant::now();
    let spec: SourceSpec = "rtsp://127.0.0.1:1/x".parse().unwrap();
    assert!(matches!(fails(&spec, "rtsp://127.0.0.1:1/x").0, SourceError::Unreachable { .. }));
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());

    // A server that accepts the connection and never answers: without a timeout FFmpeg waits
    // forever; with ours it gives up after URL_TIMEOUT.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("rtsp://127.0.0.1:{}/x", silent.local_addr().unwrap().port());
    let started = Instant::now();
    assert!(matches!(fails(&SourceSpec::Url(url.clone()), &url).0, SourceError::Unreachable { .. }));
    let waited = started.elapsed();
    assert!(
        waited >= URL_TIMEOUT - Duration::from_millis(200) && waited < URL_TIMEOUT + Duration::from_secs(3),
        "{waited:?}"
    );
}
