// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <linux/mutex.h>
#include <linux/atomic.h>

struct sampler {
	struct timer_list timer;
	unsigned long period;		/* jiffies */
	atomic_t ticks;
	atomic_t shutting_down;

	struct workqueue_struct *wq;
	struct work_struct work;

	struct mutex stats_lock;	/* protects processed */
	unsigned int processed;
};

static struct sampler *smp;

static void sampler_work_fn(struct work_struct *work)
{
	struct sampler *s = container_of(work, struct sampler, work);

	mutex_lock(&s->stats_lock);
	s->processed++;
	if ((s->processed % 10) == 0)
		pr_info("sampler: processed %u (ticks %d)\n",
			s->processed, atomic_read(&s->ticks));
	mutex_unlock(&s->stats_lock);
}

static void sampler_timer_fn(struct timer_list *t)
{
	struct sampler *s = from_timer(s, t, timer);

	atomic_inc(&s->ticks);
	queue_work(s->wq, &s->work);

	if (atomic_read(&s->shutting_down))
		return;

	/* re-arm relative to the previous expiry to avoid drift */
	mod_timer(&s->timer, s->timer.expires + s->period);
}

static int __init sampler_init(void)
{
	struct sampler *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;

	s->wq = alloc_ordered_workqueue("sampler_wq", 0);
	if (!s->wq) {
		kfree(s);
		return -ENOMEM;
	}

	mutex_init(&s->stats_lock);
	INIT_WORK(&s->work, sampler_work_fn);
	atomic_set(&s->ticks, 0);
	atomic_set(&s->shutting_down, 0);
	s->period = msecs_to_jiffies(100);
	timer_setup(&s->timer, sampler_timer_fn, 0);

	smp = s;
	s->timer.expires = jiffies + s->period;
	add_timer(&s->timer);

	return 0;
}

static void __exit sampler_exit(void)
{
	struct sampler *s = smp;

	atomic_set(&s->shutting_down, 1);
	/* waits for a running callback; deletes the timer if it re-armed */
	del_timer_sync(&s->timer);

	/* timer is dead, so nothing re-queues the work from here on */
	cancel_work_sync(&s->work);
	destroy_workqueue(s->wq);

	mutex_destroy(&s->stats_lock);
	kfree(s);
	smp = NULL;
}

module_init(sampler_init);
module_exit(sampler_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("sampler: 100 ms timer with sleepable processing on a private workqueue");
