// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

struct sampler {
	struct workqueue_struct *wq;
	struct timer_list timer;
	struct work_struct work;
	struct mutex lock;
	unsigned long ticks;
	unsigned long processed;
};

static struct sampler s;

static void process(struct work_struct *w)
{
	struct sampler *sp = container_of(w, struct sampler, work);

	mutex_lock(&sp->lock);
	if (++sp->processed % 10 == 0)
		pr_info("sampler: processed %lu (ticks %lu)\n", sp->processed, READ_ONCE(sp->ticks));
	mutex_unlock(&sp->lock);
}

static void tick(struct timer_list *t)
{
	struct sampler *sp = from_timer(sp, t, timer);

	WRITE_ONCE(sp->ticks, sp->ticks + 1);
	queue_work(sp->wq, &sp->work);
	mod_timer(&sp->timer, jiffies + HZ / 10);
}

static int __init sampler_init(void)
{
	mutex_init(&s.lock);
	INIT_WORK(&s.work, process);
	s.wq = alloc_ordered_workqueue("sampler_wq", 0);
	if (s.wq == NULL)
		return -ENOMEM;
	timer_setup(&s.timer, tick, 0);
	s.timer.expires = jiffies + HZ / 10;
	add_timer(&s.timer);
	return 0;
}

static void __exit sampler_exit(void)
{
	timer_shutdown_sync(&s.timer);
	flush_workqueue(s.wq);
	destroy_workqueue(s.wq);
	mutex_destroy(&s.lock);
}

module_init(sampler_init);
module_exit(sampler_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("timer + workqueue sampler");
