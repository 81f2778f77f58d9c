// SPDX-License-Identifier: GPL-2.0
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#define SAMPLE_PERIOD_MS 100

static struct workqueue_struct *sampler_wq;
static struct timer_list sampler_timer;
static struct work_struct sampler_work;
static atomic_t sampler_ticks = ATOMIC_INIT(0);

static DEFINE_MUTEX(sampler_lock);
static unsigned int sampler_processed;

static void sampler_work_fn(struct work_struct *work)
{
	mutex_lock(&sampler_lock);
	sampler_processed++;
	if (sampler_processed % 10 == 0)
		pr_info("sampler: processed %u (ticks %d)\n", sampler_processed,
			atomic_read(&sampler_ticks));
	mutex_unlock(&sampler_lock);
}

static void sampler_timer_fn(struct timer_list *t)
{
	atomic_inc(&sampler_ticks);
	queue_work(sampler_wq, &sampler_work);
	mod_timer(&sampler_timer, jiffies + msecs_to_jiffies(SAMPLE_PERIOD_MS));
}

static int __init sampler_init(void)
{
	sampler_wq = alloc_workqueue("sampler_wq", WQ_UNBOUND, 1);
	if (!sampler_wq)
		return -ENOMEM;

	INIT_WORK(&sampler_work, sampler_work_fn);
	timer_setup(&sampler_timer, sampler_timer_fn, 0);
	mod_timer(&sampler_timer, jiffies + msecs_to_jiffies(SAMPLE_PERIOD_MS));
	return 0;
}

static void __exit sampler_exit(void)
{
	del_timer_sync(&sampler_timer);
	cancel_work_sync(&sampler_work);
	destroy_workqueue(sampler_wq);
}

module_init(sampler_init);
module_exit(sampler_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Periodic timer deferring sleepable processing to a workqueue");
