// SPDX-License-Identifier: GPL-2.0
/*
 * sampler: a 100 ms kernel timer counts ticks in softirq context and hands
 * the sleepable processing to a work item on the module's own workqueue.
 * init arms the timer through its own helper, tick_arm().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#define SAMPLER_LOG_EVERY	10

struct sampler_stats {
	struct mutex lock;	/* protects processed */
	u64 processed;
};

static struct sampler_stats stats;
static atomic64_t tick_count = ATOMIC64_INIT(0);
static unsigned long period;	/* timer period in jiffies */
static struct workqueue_struct *proc_wq;
static struct timer_list tick_timer;

/* Sleepable processing step; later this talks to the I2C sensor. */
static void sampler_process(struct sampler_stats *st)
{
	u64 n;

	mutex_lock(&st->lock);
	n = ++st->processed;
	if (n % SAMPLER_LOG_EVERY == 0)
		pr_info("processed %llu (ticks %lld)\n", n,
			(long long)atomic64_read(&tick_count));
	mutex_unlock(&st->lock);
}

static void proc_work_handler(struct work_struct *work)
{
	sampler_process(&stats);
}

static DECLARE_WORK(proc_work, proc_work_handler);

/* Softirq context: count, defer, re-arm - nothing here may sleep. */
static void tick_expired(struct timer_list *t)
{
	atomic64_inc(&tick_count);
	queue_work(proc_wq, &proc_work);
	mod_timer(t, jiffies + period);
}

static void tick_arm(void)
{
	mod_timer(&tick_timer, jiffies + period);
}

static void __exit sampler_unload(void)
{
	/* No callback runs or re-arms after this returns ... */
	timer_delete_sync(&tick_timer);
	/* ... so draining leaves the queue empty for good. */
	drain_workqueue(proc_wq);
	destroy_workqueue(proc_wq);
	mutex_destroy(&stats.lock);
}

static int __init sampler_load(void)
{
	mutex_init(&stats.lock);
	period = msecs_to_jiffies(100);
	timer_setup(&tick_timer, tick_expired, 0);

	proc_wq = alloc_workqueue("sampler_wq", 0, 1);
	if (proc_wq == NULL) {
		pr_err("cannot allocate workqueue\n");
		mutex_destroy(&stats.lock);
		return -ENOMEM;
	}

	tick_arm();
	pr_info("sampling every %u ms\n", jiffies_to_msecs(period));
	return 0;
}

module_init(sampler_load);
module_exit(sampler_unload);

MODULE_DESCRIPTION("Sampler: 100 ms timer with sleepable processing on sampler_wq");
MODULE_LICENSE("GPL");
