//! [`WhenWoken`]: a future polled only when it has woken its task, for the select branches
//! that almost never fire (a drain, a connection's close, a client gone) beside a branch that
//! fires on every wake.
//!
//! Why: a `select!` polls every branch on every wake of its task, and polling a waiting
//! `CancellationToken::cancelled()` or `Notify::notified()` takes a mutex or two each time. A
//! connection's task wakes for every frame read and written, a watcher's pump for every event,
//! so those locks were a few percent of a watched move's server CPU for nothing. Wrapped, the
//! inner future is polled on the first poll and then only after its own waker fired.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};

use futures_util::task::AtomicWaker;

pin_project_lite::pin_project! {
    /// See the module doc.
    pub(crate) struct WhenWoken<F> {
        #[pin]
        inner: F,
        flag: Arc<Flag>,
        // The inner future's waker: the flag's, made once.
        waker: Waker,
    }
}

/// Set by the inner future's waker, which then wakes the task that polls us.
#[derive(Default)]
struct Flag {
    woken: AtomicBool,
    task: AtomicWaker,
}

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        self.task.wake();
    }
}

impl<F: Future> WhenWoken<F> {
    #[must_use]
    pub(crate) fn new(inner: F) -> WhenWoken<F> {
        let flag = Arc::new(Flag {
            woken: AtomicBool::new(true),
            task: AtomicWaker::new(),
        });
        WhenWoken {
            inner,
            waker: Waker::from(flag.clone()),
            flag,
        }
    }
}

impl<F: Future> Future for WhenWoken<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        // Registered before the flag is read: a wake between the two still wakes this task.
        this.flag.task.register(cx.waker());
        if !this.flag.woken.swap(false, Ordering::AcqRel) {
            return Poll::Pending;
        }
        this.inner.poll(&mut Context::from_waker(this.waker))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::atomic::AtomicUsize;

    /// Counts its polls; ready once `ready` is set, and wakes what polled it when set.
    #[derive(Default)]
    struct Probe {
        polls: AtomicUsize,
        ready: AtomicBool,
        waker: std::sync::Mutex<Option<Waker>>,
    }

    struct Polled(Arc<Probe>);

    impl Future for Polled {
        type Output = ();
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            self.0.polls.fetch_add(1, Ordering::Relaxed);
            if self.0.ready.load(Ordering::Acquire) {
                return Poll::Ready(());
            }
            *self.0.waker.lock().unwrap() = Some(cx.waker().clone());
            Poll::Pending
        }
    }

    /// Polled first, skipped while it has not woken, polled again when it wakes, and its wake
    /// reaches the task that polls the wrapper.
    #[test]
    fn polled_only_when_woken() {
        let probe = Arc::new(Probe::default());
        let mut fut = std::pin::pin!(WhenWoken::new(Polled(probe.clone())));
        let task = Arc::new(super::Flag::default());
        let task_waker = Waker::from(task.clone());
        let mut cx = Context::from_waker(&task_waker);
        assert!(fut.as_mut().poll(&mut cx).is_pending());
        assert_eq!(probe.polls.load(Ordering::Relaxed), 1);
        for _ in 0..5 {
            assert!(fut.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(
            probe.polls.load(Ordering::Relaxed),
            1,
            "not woken: not polled"
        );
        probe.ready.store(true, Ordering::Release);
        let inner_waker = probe.waker.lock().unwrap().take().unwrap();
        assert!(!task.woken.load(Ordering::Acquire));
        inner_waker.wake();
        assert!(task.woken.load(Ordering::Acquire), "the task was woken");
        assert!(fut.as_mut().poll(&mut cx).is_ready());
        assert_eq!(probe.polls.load(Ordering::Relaxed), 2);
    }

    /// A real drain token through a select: the cancel is seen at the next poll.
    #[tokio::test]
    async fn a_cancel_is_seen() {
        let token = tokio_util::sync::CancellationToken::new();
        let cancelled = WhenWoken::new(token.clone().cancelled_owned());
        let waiter = tokio::spawn(cancelled);
        tokio::task::yield_now().await;
        token.cancel();
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .expect("the cancel woke the wrapper's task")
            .unwrap();
    }
}
